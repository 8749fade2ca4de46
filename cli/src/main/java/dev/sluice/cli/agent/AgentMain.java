package dev.sluice.cli.agent;

import dev.sluice.cli.Commands;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.client.CachedClientSetup;
import dev.sluice.cli.client.ConnectionPool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code sluice-agent [-D] [--socket PATH]}: runs the user commands for local callers. The
 * socket defaults to {@code $SLUICE_AGENT_SOCKET}, else {@code /run/sluice/agent.sock}; the
 * front ends look in the same places. Runs until SIGTERM, removing its socket on the way out.
 */
public final class AgentMain {
    public static final String DEFAULT_SOCKET = "/run/sluice/agent.sock";
    public static final String SOCKET_ENV = "SLUICE_AGENT_SOCKET";

    private AgentMain() {}

    public static void main(String[] args) throws Exception {
        String socket = System.getenv().getOrDefault(SOCKET_ENV, DEFAULT_SOCKET);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-D" -> {
                    // foreground is the only mode; accepted for systemd units written for slurmd
                }
                case "--socket" -> {
                    if (i + 1 >= args.length) {
                        usage("--socket needs a path");
                    }
                    socket = args[++i];
                }
                case "-h", "--help" -> {
                    System.out.println("Usage: sluice-agent [-D] [--socket PATH]");
                    return;
                }
                default -> usage("unrecognized option '" + args[i] + "'");
            }
        }
        // Callers' arguments keep every byte (AgentFrames); see Main.PROTOBUF_LOG.
        dev.sluice.cli.Main.quietProtobuf();
        // Kept connections: one per concurrent caller up to 16, dropped after a quiet minute.
        CachedClientSetup setup = new CachedClientSetup(
                new ConnectionPool(16, Duration.ofMinutes(1), Clock.systemUTC()), Clock.systemUTC());
        AgentServer server = new AgentServer(
                        Path.of(socket),
                        Commands::byName,
                        UserDirectory.fromFiles(Path.of("/etc/passwd"), Path.of("/etc/group")),
                        Clock.systemDefaultZone(),
                        hostName(),
                        setup)
                .start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
                setup.close();
            } catch (IOException e) {
                System.err.println("sluice-agent: " + e.getMessage());
            }
            stopped.countDown();
        }));
        stopped.await();
    }

    private static void usage(String problem) {
        System.err.println("sluice-agent: " + problem);
        System.err.println("Usage: sluice-agent [-D] [--socket PATH]");
        System.exit(1);
    }

    private static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            return h.isEmpty() ? "localhost" : h;
        } catch (IOException e) {
            return "localhost";
        }
    }
}
