package dev.sluice.restd;

import com.sun.security.auth.module.UnixSystem;
import dev.sluice.cli.Caller;
import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.log.DaemonLogging;
import dev.sluice.restd.auth.LocalAuth;
import dev.sluice.restd.auth.RestAuth;
import dev.sluice.restd.auth.TokenGate;
import dev.sluice.restd.controller.LocalSessions;
import dev.sluice.restd.controller.Sessions;
import dev.sluice.restd.controller.TokenSessions;
import dev.sluice.restd.http.Listen;
import dev.sluice.restd.http.RestServer;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sluice-restd}: Slurm's REST API, in slurmrestd's manner.
 *
 * <pre>
 * sluice-restd [-f slurm.conf] [-a rest_auth/jwt|rest_auth/local] [--ports-file FILE] [HOST:]PORT|unix:/path
 * </pre>
 *
 * Port 0 binds a port the kernel picks; {@code --ports-file} has the daemon write the port it
 * bound ({@code port=}; {@link dev.sluice.common.daemon.PortsFile}) once it serves.
 *
 * The configuration is {@code -f}, else {@code $SLURM_CONF}, else /etc/slurm/slurm.conf. With
 * rest_auth/jwt (the default) its {@code auth/jwt} key verifies the requests' tokens; with
 * rest_auth/local the daemon serves, on a Unix socket, the one user it runs as (LocalMode).
 */
public final class RestdMain {
    private static final Logger log = LoggerFactory.getLogger(RestdMain.class);

    private RestdMain() {}

    public static void main(String[] args) throws Exception {
        DaemonLogging.install();
        System.exit(run(args, System.getenv(), System.err));
    }

    static final String USAGE =
            "Usage: sluice-restd [-f slurm.conf] [-a rest_auth/jwt|rest_auth/local] [--ports-file FILE]"
                    + " [HOST:]PORT|unix:/path";

    static int run(String[] args, Map<String, String> env, PrintStream err) throws Exception {
        Optional<Path> conf = Optional.empty();
        String listen = null;
        String plugin = "rest_auth/jwt";
        Optional<Path> portsFile = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("-f") && i + 1 < args.length) {
                conf = Optional.of(Path.of(args[++i]));
            } else if (args[i].equals("--ports-file") && i + 1 < args.length) {
                portsFile = Optional.of(Path.of(args[++i]));
            } else if (args[i].equals("-a") && i + 1 < args.length) {
                plugin = args[++i];
            } else if (args[i].equals("-h") || args[i].equals("--help")) {
                err.println(USAGE);
                return 0;
            } else if (!args[i].startsWith("-") && listen == null) {
                listen = args[i];
            } else {
                err.println("sluice-restd: unknown argument " + args[i] + "\n" + USAGE);
                return 1;
            }
        }
        if (listen == null) {
            err.println(USAGE);
            return 1;
        }
        if (!plugin.equals("rest_auth/jwt") && !plugin.equals("rest_auth/local")) {
            err.println("sluice-restd: fatal: unknown authentication plugin " + plugin
                    + " (rest_auth/jwt or rest_auth/local)");
            return 1;
        }
        Path confPath = conf.orElse(ControllerLocator.confPath(env, Path.of("").toAbsolutePath()));
        Listen where;
        ClusterAccess access;
        Optional<UserTokens> tokens;
        try {
            where = listen(listen);
            access = ClusterAccess.read(confPath);
            // Local mode proves nothing with tokens: its user need not be able to read the key.
            tokens = plugin.equals("rest_auth/jwt") ? JwtKey.fromConf(access.conf()) : Optional.empty();
        } catch (ConfigException | AuthException | IllegalArgumentException e) {
            err.println("sluice-restd: fatal: " + e.getMessage());
            return 1;
        }
        UnixSystem unix = new UnixSystem();
        Optional<String> refused = LocalMode.refusal(unix.getUid(), env);
        if (refused.isPresent()) {
            err.println("sluice-restd: fatal: " + refused.get());
            return 1;
        }
        String host = InetAddress.getLocalHost().getHostName();
        RestAuth gate;
        Sessions sessions;
        if (plugin.equals("rest_auth/local")) {
            UserDb users = UserDb.system();
            gate = new LocalAuth(
                    unix.getUsername(),
                    unix.getUid(),
                    name -> users.byName(name)
                            .map(a -> OptionalLong.of(a.uid()))
                            .orElse(OptionalLong.empty()));
            sessions = new LocalSessions(access, new Caller(unix.getUid(), unix.getGid(), unix.getUsername(), host));
        } else {
            if (tokens.isEmpty()) {
                log.warn("AuthAltTypes has no auth/jwt: every request will be refused");
            }
            gate = new TokenGate(tokens, access.conf().slurmUser());
            sessions = new TokenSessions(access, UserDb.system(), host);
        }
        RestServer server = new RestServer(
                where, gate, sessions, access.conf().clusterName(), control(access.conf()), Clock.systemUTC());
        server.start();
        String at = where instanceof Listen.Unix u ? "unix:" + u.path() : "port " + server.port();
        log.info("sluice-restd listening on {} ({})", at, plugin);
        if (portsFile.isPresent() && where instanceof Listen.Tcp) {
            dev.sluice.common.daemon.PortsFile.write(portsFile.get(), Map.of("port", server.port()));
        }
        var systemd = dev.sluice.common.systemd.SdNotify.fromEnvironment(env);
        systemd.sendOrWarn("READY=1\nSTATUS=serving the REST API on " + at);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            systemd.sendOrWarn("STOPPING=1");
            server.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }

    /** {@code unix:/path} (an absolute path), else an address as {@link #address}. */
    static Listen listen(String text) {
        if (text.startsWith("unix:")) {
            Path path = Path.of(text.substring("unix:".length()));
            if (!path.isAbsolute()) {
                throw new IllegalArgumentException("not an absolute socket path: " + text);
            }
            return new Listen.Unix(path);
        }
        return new Listen.Tcp(address(text));
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
