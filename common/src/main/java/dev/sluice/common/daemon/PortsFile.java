package dev.sluice.common.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The ports a daemon bound, as {@code --ports-file FILE} asks it to tell: one {@code name=port}
 * line each ({@code port} for the daemon's own port, then {@code grpc}, {@code metrics}, ...).
 * A daemon started on port 0 binds whatever the kernel gives it, and whoever started it (the
 * local cluster, a test) reads the real numbers here instead of guessing a free port before the
 * start, which another process may take first. The file appears whole or not at all: it is
 * written beside its final name and renamed, after every socket is bound.
 */
public final class PortsFile {
    private PortsFile() {}

    /** Writes {@code ports} (name → bound port, in order) to {@code file}, atomically. */
    public static void write(Path file, Map<String, Integer> ports) throws IOException {
        StringBuilder s = new StringBuilder();
        ports.forEach((name, port) -> s.append(name).append('=').append(port).append('\n'));
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, s, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The ports in {@code text}; a line that is not {@code name=port} is refused. */
    public static Map<String, Integer> parse(String text) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int eq = line.indexOf('=');
            int port;
            try {
                port = eq > 0 ? Integer.parseInt(line.substring(eq + 1).strip()) : -1;
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("not a name=port line: \"" + line + "\"");
            }
            ports.put(line.substring(0, eq).strip(), port);
        }
        return ports;
    }

    /** The ports in {@code file}; empty while the daemon has not written it. */
    public static Optional<Map<String, Integer>> read(Path file) throws IOException {
        try {
            return Optional.of(parse(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }
}
