package dev.sluice.restd;

import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.log.DaemonLogging;
import dev.sluice.restd.auth.TokenGate;
import dev.sluice.restd.controller.TokenSessions;
import dev.sluice.restd.http.RestServer;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sluice-restd}: Slurm's REST API, in slurmrestd's manner.
 *
 * <pre>
 * sluice-restd [-f slurm.conf] [HOST:]PORT
 * </pre>
 *
 * The configuration is {@code -f}, else {@code $SLURM_CONF}, else /etc/slurm/slurm.conf; its
 * {@code auth/jwt} key verifies the requests' tokens. Only rest_auth/jwt is offered: the local
 * (Unix socket peer) mode of slurmrestd is not there yet.
 */
public final class RestdMain {
    private static final Logger log = LoggerFactory.getLogger(RestdMain.class);

    private RestdMain() {}

    public static void main(String[] args) throws Exception {
        DaemonLogging.install();
        System.exit(run(args, System.getenv(), System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream err) throws Exception {
        Optional<Path> conf = Optional.empty();
        String listen = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("-f") && i + 1 < args.length) {
                conf = Optional.of(Path.of(args[++i]));
            } else if (args[i].equals("-h") || args[i].equals("--help")) {
                err.println("Usage: sluice-restd [-f slurm.conf] [HOST:]PORT");
                return 0;
            } else if (!args[i].startsWith("-") && listen == null) {
                listen = args[i];
            } else {
                err.println("sluice-restd: unknown argument " + args[i]
                        + "\nUsage: sluice-restd [-f slurm.conf] [HOST:]PORT");
                return 1;
            }
        }
        if (listen == null) {
            err.println("Usage: sluice-restd [-f slurm.conf] [HOST:]PORT");
            return 1;
        }
        Path confPath = conf.orElse(ControllerLocator.confPath(env, Path.of("").toAbsolutePath()));
        InetSocketAddress address;
        ClusterAccess access;
        Optional<UserTokens> tokens;
        try {
            address = address(listen);
            access = ClusterAccess.read(confPath);
            tokens = JwtKey.fromConf(access.conf());
        } catch (ConfigException | AuthException | IllegalArgumentException e) {
            err.println("sluice-restd: fatal: " + e.getMessage());
            return 1;
        }
        if (tokens.isEmpty()) {
            log.warn("AuthAltTypes has no auth/jwt: every request will be refused");
        }
        String host = InetAddress.getLocalHost().getHostName();
        RestServer server = new RestServer(
                address,
                new TokenGate(tokens),
                new TokenSessions(access, UserDb.system(), host),
                access.conf().clusterName(),
                control(access.conf()),
                Clock.systemUTC());
        server.start();
        log.info("sluice-restd listening on {}", server.port());
        var systemd = dev.sluice.common.systemd.SdNotify.fromEnvironment(env);
        systemd.sendOrWarn("READY=1\nSTATUS=serving the REST API on port " + server.port());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            systemd.sendOrWarn("STOPPING=1");
            server.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }

    /** {@code PORT}, {@code HOST:PORT} or {@code [V6]:PORT}. */
    /**
     * The controller's address as sacctmgr show cluster prints it: the first SlurmctldHost's
     * (its address where given), since Sluice's controller does not register with the dbd.
     */
    static SlurmdbApi.Control control(SlurmConf conf) {
        if (conf.controlHostEntries().isEmpty()) {
            return SlurmdbApi.Control.unknown();
        }
        return new SlurmdbApi.Control(conf.controlHostEntries().get(0).addr(), conf.slurmctldPort());
    }

    static InetSocketAddress address(String text) {
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? "" : text.substring(0, colon);
        String port = colon < 0 ? text : text.substring(colon + 1);
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        if (p < 0 || p > 65535) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host.isEmpty() ? new InetSocketAddress(p) : new InetSocketAddress(host, p);
    }
}
