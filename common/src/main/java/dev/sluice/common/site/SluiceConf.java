package dev.sluice.common.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Sluice's own settings, kept out of {@code slurm.conf} so that file stays exactly what Slurm
 * accepts: an optional {@code sluice.conf} beside it, {@code Key=Value} lines and {@code #}
 * comments. Keys: {@code SlurmctldGrpcPort} (the daemons' gRPC port of the controller,
 * default SlurmctldPort + 100), {@code CommandSocket} (the controller's Unix socket for local
 * commands, default {@code slurmctld.socket} in StateSaveLocation; see docs/security.md),
 * {@code SlurmctldMetricsPort} and {@code SlurmdMetricsPort} (where the controller and the node
 * daemons serve Prometheus {@code /metrics}; off when unset).
 */
public final class SluiceConf {
    public static final String FILE_NAME = "sluice.conf";

    private static final java.util.Set<String> KEYS =
            java.util.Set.of("slurmctldgrpcport", "commandsocket", "slurmctldmetricsport", "slurmdmetricsport");

    private final Map<String, String> values;

    private SluiceConf(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    public static SluiceConf empty() {
        return new SluiceConf(Map.of());
    }

    /** Reads {@code sluice.conf} next to the given {@code slurm.conf}; empty when absent. */
    public static SluiceConf besides(Path slurmConf) throws IOException {
        Path dir = slurmConf.toAbsolutePath().getParent();
        Path file = dir == null ? Path.of(FILE_NAME) : dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return empty();
        }
        return parse(Files.readString(file), file.toString());
    }

    public static SluiceConf parse(String text, String fileName) {
        Map<String, String> values = new LinkedHashMap<>();
        int lineNo = 0;
        for (String raw : text.split("\n", -1)) {
            lineNo++;
            String line = raw.replaceFirst("#.*$", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(fileName + ":" + lineNo + ": expected Key=Value: \"" + line + "\"");
            }
            String key = line.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(fileName + ":" + lineNo + ": unknown key \""
                        + line.substring(0, eq).trim() + "\"");
            }
            String value = line.substring(eq + 1).trim();
            if (key.equals("commandsocket")) {
                if (!value.startsWith("/")) {
                    throw new IllegalArgumentException(fileName + ":" + lineNo + ": "
                            + line.substring(0, eq).trim() + " must be an absolute path: \"" + value + "\"");
                }
            } else if (!value.matches("[0-9]{1,5}") || Integer.parseInt(value) > 65535) {
                throw new IllegalArgumentException(fileName + ":" + lineNo + ": "
                        + line.substring(0, eq).trim() + " is not a port number: \"" + value + "\"");
            }
            values.put(key, value);
        }
        return new SluiceConf(values);
    }

    /** {@code CommandSocket}: where the controller's Unix command socket is, when not the default. */
    public java.util.Optional<String> commandSocket() {
        return java.util.Optional.ofNullable(values.get("commandsocket")).filter(v -> !v.isEmpty());
    }

    public OptionalInt slurmctldGrpcPort() {
        return port("slurmctldgrpcport");
    }

    public OptionalInt slurmctldMetricsPort() {
        return port("slurmctldmetricsport");
    }

    public OptionalInt slurmdMetricsPort() {
        return port("slurmdmetricsport");
    }

    private OptionalInt port(String key) {
        String v = values.get(key);
        return v == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(v));
    }
}
