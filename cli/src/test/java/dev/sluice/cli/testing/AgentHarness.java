package dev.sluice.cli.testing;

import dev.sluice.cli.Command;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.agent.AgentFrames;
import dev.sluice.cli.agent.AgentServer;
import dev.sluice.cli.client.CachedClientSetup;
import dev.sluice.cli.client.ConnectionPool;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * An in-process {@code sluice-agent} on a socket in a temporary directory, and a client that
 * speaks its frames the way the native front end does, for tests that compare both paths.
 */
public final class AgentHarness implements AutoCloseable {
    private final AgentServer server;
    private final CachedClientSetup setup;

    /** The agent as sluice-agent runs it: files cached, controller connections kept. */
    public AgentHarness(Path dir, Function<String, Optional<Command>> commands, UserDirectory users, Clock clock)
            throws IOException {
        setup = new CachedClientSetup(
                new ConnectionPool(4, Duration.ofMinutes(1), Clock.systemUTC()), Clock.systemUTC());
        server = new AgentServer(dir.resolve("agent.sock"), commands, users, clock, "localhost", setup).start();
    }

    public Path socket() {
        return server.socket();
    }

    /** Runs argv (argv[0] = command name) through the agent; stdin is sent when asked for. */
    public TestingInvocations.Output run(List<String> argv, Map<String, String> env, Path cwd, String stdin)
            throws IOException {
        try (SocketChannel channel = connect()) {
            DataOutputStream out = new DataOutputStream(Channels.newOutputStream(channel));
            DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
            byte[] run = AgentFrames.encodeRun(new AgentFrames.Run(argv, env, cwd.toString()));
            AgentFrames.write(out, AgentFrames.RUN, run, 0, run.length);
            out.flush();
            ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            while (true) {
                AgentFrames.Frame f = AgentFrames.read(in);
                switch (f.type()) {
                    case AgentFrames.STDOUT -> stdout.writeBytes(f.payload());
                    case AgentFrames.STDERR -> stderr.writeBytes(f.payload());
                    case AgentFrames.WANT_STDIN -> {
                        byte[] bytes = stdin.getBytes(StandardCharsets.UTF_8);
                        AgentFrames.write(out, AgentFrames.STDIN, bytes, 0, bytes.length);
                        AgentFrames.write(out, AgentFrames.STDIN, new byte[0], 0, 0);
                        out.flush();
                    }
                    case AgentFrames.EXIT -> {
                        return new TestingInvocations.Output(
                                AgentFrames.intOf(f.payload()),
                                stdout.toString(StandardCharsets.UTF_8),
                                stderr.toString(StandardCharsets.UTF_8));
                    }
                    default -> throw new IOException("unexpected frame " + f.type());
                }
            }
        }
    }

    public SocketChannel connect() throws IOException {
        return SocketChannel.open(UnixDomainSocketAddress.of(server.socket()));
    }

    public static List<String> argv(String command, String... args) {
        List<String> all = new ArrayList<>();
        all.add(command);
        all.addAll(List.of(args));
        return all;
    }

    @Override
    public void close() throws IOException {
        server.close();
        setup.close();
    }
}
