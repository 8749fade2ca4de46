package dev.sluice.cli.agent;

import dev.sluice.cli.Commands;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.client.CachedClientSetup;
import dev.sluice.cli.client.ConnectionPool;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.common.daemon.DaemonOptions;
import dev.sluice.common.daemon.DaemonOptions.Option;
import dev.sluice.common.files.OwnerOnly;
import dev.sluice.common.log.DaemonLogging;
import dev.sluice.common.systemd.SdNotify;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice-agent [-D] [--socket PATH] [--conf SLURM_CONF]}: runs the user commands for
 * local callers whose configuration is {@code SLURM_CONF} (default {@code $SLURM_CONF}, else
 * {@code $SLUICE_CONF}, else {@code /etc/slurm/slurm.conf}, as the commands look for it); callers
 * naming another file run their commands themselves. The socket defaults to
 * {@code $SLUICE_AGENT_SOCKET}, else {@code /run/sluice/agent.sock}; the front ends look in the
 * same places. Under a {@code Type=notify} unit it sends {@code READY=1} once the socket accepts
 * callers. Runs until SIGTERM, removing its socket on the way out.
 */
public final class AgentMain {
    public static final String DEFAULT_SOCKET = "/run/sluice/agent.sock";
    public static final String SOCKET_ENV = "SLUICE_AGENT_SOCKET";

    static final DaemonOptions OPTIONS = DaemonOptions.of(
            "sluice-agent",
            List.of(
                    Option.flag("-D", "Run daemon in foreground (always)."),
                    DaemonOptions.HELP,
                    Option.withArgument(
                            "--socket",
                            "path",
                            "Listen on this Unix socket (default: $" + SOCKET_ENV + ", else " + DEFAULT_SOCKET + ")."),
                    Option.withArgument(
                            "--conf",
                            "file",
                            "Serve the callers of this slurm.conf (default: $SLURM_CONF, else $SLUICE_CONF, else"
                                    + " /etc/slurm/slurm.conf); others run their commands themselves.")));

    private AgentMain() {}

    public static void main(String[] args) throws Exception {
        DaemonLogging.install();
        OwnerOnly.restrictProcessUmask();
        // Callers' arguments keep every byte (AgentFrames); see Main.PROTOBUF_LOG.
        dev.sluice.cli.Main.quietProtobuf();
        CompletableFuture<Void> stop = new CompletableFuture<>();
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.complete(null);
            try {
                // The socket is removed before the JVM goes: wait for run() to close it.
                closed.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        int rc = run(args, System.getenv(), System.out, System.err, stop);
        closed.countDown();
        if (rc != 0) {
            // Only reached before serving: no shutdown is under way, so exit cannot block.
            System.exit(rc);
        }
    }

    /**
     * Serves until {@code stop} completes (SIGTERM, from {@link #main}); returns the exit status.
     * A command line it does not take, or a socket it cannot listen on, returns at once.
     */
    static int run(
            String[] args, Map<String, String> env, PrintStream out, PrintStream err, CompletableFuture<Void> stop) {
        DaemonOptions.Parsed given;
        try {
            given = OPTIONS.parse(List.of(args));
        } catch (DaemonOptions.UsageException e) {
            return OPTIONS.refuse(e, err);
        }
        if (given.help()) {
            return OPTIONS.help(out);
        }
        String socket = given.last("--socket").orElseGet(() -> env.getOrDefault(SOCKET_ENV, DEFAULT_SOCKET));
        Path conf = given.last("--conf")
                .map(c -> Path.of(c).toAbsolutePath())
                .orElseGet(() -> ControllerLocator.confPath(env, Path.of("").toAbsolutePath()));
        // Kept connections: one per concurrent caller up to 16, dropped after a quiet minute.
        CachedClientSetup setup = new CachedClientSetup(
                new ConnectionPool(16, Duration.ofMinutes(1), Clock.systemUTC()), Clock.systemUTC());
        AgentServer server;
        try {
            server = new AgentServer(
                            Path.of(socket),
                            Commands::byName,
                            UserDirectory.system(),
                            Clock.systemDefaultZone(),
                            dev.sluice.common.daemon.HostName.name(),
                            new AgentSetup(conf, setup))
                    .start();
        } catch (IOException e) {
            err.println("sluice-agent: fatal: cannot listen on " + socket + ": " + e.getMessage());
            setup.close();
            return 1;
        }
        SdNotify systemd = SdNotify.fromEnvironment(env);
        systemd.sendOrWarn("READY=1\nSTATUS=serving commands on " + socket);
        stop.join();
        systemd.sendOrWarn("STOPPING=1");
        try {
            server.close();
        } catch (IOException e) {
            err.println("sluice-agent: " + e.getMessage());
        }
        setup.close();
        return 0;
    }
}
