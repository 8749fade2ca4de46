package dev.sluice.dbd.server;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.daemon.DaemonOptions;
import dev.sluice.common.daemon.DaemonOptions.Option;
import dev.sluice.common.log.DaemonLogging;
import dev.sluice.dbd.config.DbdConfig;
import dev.sluice.dbd.config.DbdConfigs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sluice-dbd}: the accounting daemon's command line, in slurmdbd's manner.
 *
 * <pre>
 * sluice-dbd [-D] [-f slurmdbd.conf] [--bind ADDR] [--jdbc-url URL] [--data-dir DIR]
 *            [--port N] [--grpc-port N] [--ports-file FILE] [--key-file FILE]
 * </pre>
 *
 * {@code --port 0} binds a port the kernel picks and the gRPC port 100 above it (both held
 * before either is told), and {@code --ports-file} has the daemon write the ports it bound
 * ({@code port=}, {@code grpc=}; {@link dev.sluice.common.daemon.PortsFile}) once it serves:
 * how {@code ./sluice up} and the tests start it without guessing a free port.
 *
 * The configuration is {@code -f}, else {@code $SLURMDBD_CONF}, else slurmdbd.conf beside
 * {@code $SLURM_CONF}, else /etc/slurm/slurmdbd.conf; a missing default file means "all
 * defaults" (embedded database under {@code --data-dir}, default /var/lib/sluice/dbd). The
 * cluster key is {@code --key-file}, else {@code slurm.jwks} or {@code slurm.key} beside that
 * configuration file; without it the daemon does not start.
 */
public final class DbdMain {
    private static final Logger log = LoggerFactory.getLogger(DbdMain.class);

    /** The command line, listed by {@code -h} as slurmdbd's is. */
    static final DaemonOptions OPTIONS = DaemonOptions.of(
            "sluice-dbd",
            List.of(
                    Option.withArgument("--bind", "addr", "Listen on this address only (default: DbdAddr, else all)."),
                    Option.flag("-D", "Run daemon in foreground (always)."),
                    Option.withArgument(
                            "--data-dir", "dir", "Embedded database directory (default /var/lib/sluice/dbd)."),
                    Option.withArgument("-f", "file", "Use specified file for slurmdbd configuration."),
                    Option.withArgument("--grpc-port", "port", "gRPC port (default: DbdPort + 100)."),
                    DaemonOptions.HELP,
                    Option.withArgument(
                            "--jdbc-url", "url", "Accounting database (default: slurmdbd.conf's Storage*)."),
                    Option.withArgument("--key-file", "file", "Cluster key (default: slurm.key beside slurmdbd.conf)."),
                    Option.withArgument("--port", "port", "Port for the commands (default: DbdPort; 0: any free one)."),
                    Option.withArgument(
                            "--ports-file", "file", "Write the ports bound here once serving (port=, grpc=)."),
                    Option.flag("-R", "Accepted for slurmdbd command lines; no effect.")));

    private DbdMain() {}

    public static void main(String[] args) throws Exception {
        DaemonLogging.install();
        // Whatever this daemon and its libraries create holds users' jobs and secrets.
        dev.sluice.common.files.OwnerOnly.restrictProcessUmask();
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) throws Exception {
        DaemonOptions.Parsed given;
        Optional<Integer> port;
        Optional<Integer> grpcPort;
        try {
            given = OPTIONS.parse(List.of(args));
            port = OPTIONS.port(given, "--port");
            grpcPort = OPTIONS.port(given, "--grpc-port");
        } catch (DaemonOptions.UsageException e) {
            return OPTIONS.refuse(e, err);
        }
        if (given.help()) {
            return OPTIONS.help(out);
        }
        Path conf = given.last("-f").map(Path::of).orElse(null);
        Optional<String> url = given.last("--jdbc-url").or(() -> Optional.ofNullable(env.get("SLUICE_DBD_JDBC_URL")));
        Optional<Path> dataDir = given.last("--data-dir").map(Path::of);
        Optional<String> bind = given.last("--bind");
        Optional<Path> keyFile = given.last("--key-file").map(Path::of);
        boolean explicit = conf != null || env.containsKey("SLURMDBD_CONF");
        Path file = conf != null ? conf : defaultConf(env);
        String text = "";
        if (Files.isRegularFile(file)) {
            text = Files.readString(file);
        } else if (explicit) {
            err.println("sluice-dbd: fatal: cannot read " + file);
            return 1;
        }
        DbdConfig config;
        try {
            config = DbdConfigs.parse(
                    text, file.toString(), new DbdConfigs.Overrides(url, dataDir, port, grpcPort, bind));
        } catch (IllegalArgumentException e) {
            err.println("sluice-dbd: fatal: " + e.getMessage());
            return 1;
        }
        // As Slurm's auth/slurm: the cluster key sits beside the configuration; no key, no daemon.
        ClusterKeys keys;
        Optional<UserTokens> tokens;
        try {
            keys = keyFile.isPresent()
                    ? ClusterKeys.load(keyFile.get())
                    : ClusterKeys.loadFromConfigDir(file.toAbsolutePath().getParent());
            tokens = DbdConfigs.jwtTokens(text, file.toString());
        } catch (AuthException | IllegalArgumentException e) {
            err.println("sluice-dbd: fatal: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        DbdServer server;
        try {
            server = DbdServer.start(config, Clock.systemUTC(), keys, tokens);
        } catch (IOException | RuntimeException e) {
            log.error("cannot start", e);
            err.println("sluice-dbd: fatal: " + e.getMessage());
            return 1;
        }
        Optional<Path> portsFile = given.last("--ports-file").map(Path::of);
        if (portsFile.isPresent()) {
            try {
                Map<String, Integer> ports = new java.util.LinkedHashMap<>();
                ports.put("port", server.commandPort());
                ports.put("grpc", server.grpcPort());
                dev.sluice.common.daemon.PortsFile.write(portsFile.get(), ports);
            } catch (IOException e) {
                server.close();
                err.println("sluice-dbd: fatal: cannot write " + portsFile.get() + ": " + e.getMessage());
                return 1;
            }
        }
        var systemd = dev.sluice.common.systemd.SdNotify.fromEnvironment(env);
        systemd.sendOrWarn("READY=1\nSTATUS=serving accounting");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            systemd.sendOrWarn("STOPPING=1");
            log.info("sluice-dbd shutting down");
            server.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }

    private static Path defaultConf(Map<String, String> env) {
        if (env.containsKey("SLURMDBD_CONF")) {
            return Path.of(env.get("SLURMDBD_CONF"));
        }
        if (env.containsKey("SLURM_CONF")) {
            Path dir = Path.of(env.get("SLURM_CONF")).toAbsolutePath().getParent();
            if (dir != null) {
                return dir.resolve("slurmdbd.conf");
            }
        }
        return Path.of("/etc/slurm/slurmdbd.conf");
    }
}
