package dev.sluice.cli.client;

import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.ControlHost;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Finds the controllers the way Slurm's commands do: the {@code slurm.conf} named by
 * {@code SLURM_CONF} (else {@code SLUICE_CONF}, else {@code /etc/slurm/slurm.conf}), its
 * {@code SlurmctldHost} lines in order (the {@code (addr)} part when given) and the first
 * {@code SlurmctldPort}.
 */
public final class ControllerLocator {
    static final Path DEFAULT_CONF = Path.of("/etc/slurm/slurm.conf");

    private ControllerLocator() {}

    /** The configuration file a command uses, relative names taken from {@code cwd}. */
    public static Path confPath(Map<String, String> env, Path cwd) {
        String named = env.get("SLURM_CONF");
        if (named == null || named.isEmpty()) {
            named = env.get("SLUICE_CONF");
        }
        if (named == null || named.isEmpty()) {
            return DEFAULT_CONF;
        }
        return cwd.resolve(named);
    }

    /** @throws ConfigException when the file is missing or rejected by the reader */
    public static List<ControllerAddress> locate(Map<String, String> env, Path cwd) throws ConfigException {
        SlurmConf conf = SlurmConfReader.read(confPath(env, cwd));
        return addresses(conf);
    }

    private static String hostOf(ControlHost h) {
        return h.addr().isBlank() ? h.name() : ControllerAddress.hostOf(h.addr());
    }

    public static List<ControllerAddress> addresses(SlurmConf conf) {
        int port = conf.slurmctldPort();
        return conf.controlHostEntries().stream()
                .map(h -> new ControllerAddress(h.name(), hostOf(h), port))
                .toList();
    }
}
