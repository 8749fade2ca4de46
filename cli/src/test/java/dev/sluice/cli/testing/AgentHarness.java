package dev.sluice.cli.testing;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.agent.AgentFrames;
import dev.sluice.cli.agent.AgentServer;
import dev.sluice.cli.agent.AgentSetup;
import dev.sluice.cli.client.CachedClientSetup;
import dev.sluice.cli.client.ConnectionPool;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An in-process {@code sluice-agent} on a socket in a temporary directory, and a client that
 * speaks its frames the way the native front end does (file requests done in this process, a
 * fallback run in-process as the command's own JVM would), for tests that compare both paths.
 */
public final class AgentHarness implements AutoCloseable {
    private final AgentServer server;
    private final CachedClientSetup setup;
    private final Function<String, Optional<Command>> commands;
    private final UserDirectory users;
    private final Clock clock;
    private final AtomicInteger fallbacks = new AtomicInteger();

    /** An agent serving {@code dir/slurm.conf}, as sluice-agent runs it: files cached, connections kept. */
    public AgentHarness(Path dir, Function<String, Optional<Command>> commands, UserDirectory users, Clock clock)
            throws IOException {
        this(dir, dir.resolve("slurm.conf"), commands, users, clock);
    }

    /** An agent serving the slurm.conf {@code conf}. */
    public AgentHarness(
            Path dir, Path conf, Function<String, Optional<Command>> commands, UserDirectory users, Clock clock)
            throws IOException {
        this.commands = commands;
        this.users = users;
        this.clock = clock;
        setup = new CachedClientSetup(
                new ConnectionPool(4, Duration.ofMinutes(1), Clock.systemUTC()), Clock.systemUTC());
        server = new AgentServer(
                        dir.resolve("agent.sock"), commands, users, clock, "localhost", new AgentSetup(conf, setup))
                .start();
    }

    /** How many calls the agent handed back to run in the caller's own JVM. */
    public int fallbacks() {
        return fallbacks.get();
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
                    case AgentFrames.FILE, AgentFrames.PROCESS -> {
                        byte[] answer = FrontEndStandIn.answer(f, cwd);
                        AgentFrames.write(out, AgentFrames.ANSWER, answer, 0, answer.length);
                        out.flush();
                    }
                    case AgentFrames.FALLBACK -> {
                        fallbacks.incrementAndGet();
                        return ownJvm(argv, env, cwd, stdin);
                    }
                    default -> throw new IOException("unexpected frame " + f.type());
                }
            }
        }
    }

    /** What the front end does after a fallback: the command in a process of the caller's own. */
    private TestingInvocations.Output ownJvm(List<String> argv, Map<String, String> env, Path cwd, String stdin) {
        Command command = commands.apply(argv.getFirst()).orElseThrow();
        Invocation inv = new Invocation(
                argv.subList(1, argv.size()),
                env,
                cwd,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                TestingInvocations.ROOT,
                clock,
                users);
        return TestingInvocations.run(command, inv);
    }

    /**
     * The next frame from the agent that is not a request the front end answers by itself (a
     * file or a program, done here in {@code cwd}, as the native front end would).
     */
    public static AgentFrames.Frame readAnswering(DataInputStream in, DataOutputStream out, Path cwd)
            throws IOException {
        while (true) {
            AgentFrames.Frame f = AgentFrames.read(in);
            if (f.type() != AgentFrames.FILE && f.type() != AgentFrames.PROCESS) {
                return f;
            }
            byte[] answer = FrontEndStandIn.answer(f, cwd);
            AgentFrames.write(out, AgentFrames.ANSWER, answer, 0, answer.length);
            out.flush();
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
