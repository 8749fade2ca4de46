package dev.sluice.cli.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.cli.Command;
import dev.sluice.cli.testing.AgentHarness;
import dev.sluice.cli.testing.TestingInvocations;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's promises: the caller is who the kernel says; input is taken only when the command
 * reads it; Ctrl-C reaches the command; a caller that vanishes stops only its own command; and
 * the native front end falls back to the JVM when no agent answers.
 */
class TestAgent {
    static final Path NATIVE = Path.of("target/sluice-client").toAbsolutePath();

    @TempDir
    Path dir;

    private final AtomicBoolean loopRunning = new AtomicBoolean();
    private AgentHarness agent;

    /** Test commands: what a command sees of its caller, input, interrupts and a dead peer. */
    private Optional<Command> command(String name) {
        Command c = switch (name) {
            case "whoami" ->
                (inv, out, err) -> {
                    out.println("uid=" + inv.caller().uid() + " gid="
                            + inv.caller().gid() + " user=" + inv.caller().userName() + " USER="
                            + inv.env().get("USER"));
                    return 0;
                };
            case "cat" ->
                (inv, out, err) -> {
                    try {
                        out.write(inv.stdin().readAllBytes());
                    } catch (IOException e) {
                        return 1;
                    }
                    return 0;
                };
            case "noread" ->
                (inv, out, err) -> {
                    out.println("did not read");
                    return 4;
                };
            case "loop" ->
                (inv, out, err) -> {
                    loopRunning.set(true);
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            out.println("tick");
                            out.flush();
                            LockSupportPark.parkBriefly();
                        }
                        return 0;
                    } finally {
                        loopRunning.set(false);
                    }
                };
            case "ctrlc" ->
                (inv, out, err) -> {
                    java.util.concurrent.CountDownLatch heard = new java.util.concurrent.CountDownLatch(1);
                    try (var r = inv.interrupts().onInterrupt(heard::countDown)) {
                        out.println("waiting");
                        out.flush();
                        return heard.await(30, TimeUnit.SECONDS) ? 42 : 1;
                    } catch (InterruptedException e) {
                        return 1;
                    }
                };
            default -> null;
        };
        return Optional.ofNullable(c);
    }

    /** The loop's pace: yields the carrier briefly; an interrupt ends the park at once. */
    static final class LockSupportPark {
        static void parkBriefly() {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    @BeforeEach
    void start() throws IOException {
        agent = new AgentHarness(dir, this::command, TestingInvocations.USERS, Clock.systemUTC());
    }

    @AfterEach
    void stop() throws IOException {
        agent.close();
    }

    @Test
    void theCallerIsTheSocketPeerWhateverTheEnvironmentClaims() throws IOException {
        long uid = new com.sun.security.auth.module.UnixSystem().getUid();
        TestingInvocations.Output o =
                agent.run(List.of("whoami"), Map.of("USER", "someone-else", "LOGNAME", "x"), dir, "");
        assertThat(o.out()).startsWith("uid=" + uid + " ").contains("USER=someone-else");
    }

    @Test
    void aNonRootCallerIsSeenAsItselfThroughTheNativeFrontEnd() throws Exception {
        assumeNative();
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root to become nobody");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessResult r = runNative(
                List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", NATIVE.toString(), "whoami"),
                Map.of("USER", "root"),
                null);
        assertThat(r.out()).startsWith("uid=65534 gid=65534 ").contains("USER=root");
        assertThat(r.exit()).isZero();
    }

    @Test
    void inputIsForwardedOnlyToACommandThatReadsIt() throws Exception {
        assumeNative();
        ProcessResult cat = runNative(List.of(NATIVE.toString(), "cat"), Map.of(), "piped text\n");
        assertThat(cat.out()).isEqualTo("piped text\n");
        // A loop that calls a command per line must keep its lines: the command never read them.
        Path script = dir.resolve("loop.sh");
        Files.writeString(script, "printf 'one\\ntwo\\n' | { '" + NATIVE + "' noread; echo rc=$?; cat; }\n");
        ProcessResult loop = runNative(List.of("sh", script.toString()), Map.of(), null);
        assertThat(loop.out()).isEqualTo("did not read\nrc=4\none\ntwo\n");
    }

    @Test
    void ctrlCReachesTheCommandOrEndsItLikeASignal() throws Exception {
        try (SocketChannel ch = agent.connect()) {
            Wire w = Wire.start(ch, "ctrlc");
            assertThat(w.nextStdout()).isEqualTo("waiting\n");
            w.signal(2);
            assertThat(w.exitCode()).isEqualTo(42);
        }
        try (SocketChannel ch = agent.connect()) {
            Wire w = Wire.start(ch, "loop");
            assertThat(w.nextStdout()).isEqualTo("tick\n");
            w.signal(2);
            assertThat(w.exitCode()).as("as a process killed by SIGINT").isEqualTo(130);
        }
        await().atMost(Duration.ofSeconds(10)).untilFalse(loopRunning);
    }

    @Test
    void aCallerThatVanishesMidStreamStopsOnlyItsOwnCommand() throws Exception {
        SocketChannel ch = agent.connect();
        Wire w = Wire.start(ch, "loop");
        assertThat(w.nextStdout()).isEqualTo("tick\n");
        assertThat(loopRunning).isTrue();
        ch.close();
        await().atMost(Duration.ofSeconds(10)).untilFalse(loopRunning);
        assertThat(agent.run(List.of("noread"), Map.of(), dir, "").out()).isEqualTo("did not read\n");
    }

    @Test
    void unknownCommandsAndGarbageAreRefusedWithoutHarm() throws Exception {
        TestingInvocations.Output o = agent.run(List.of("rm"), Map.of(), dir, "");
        assertThat(o.exitCode()).isEqualTo(1);
        assertThat(o.err()).isEqualTo("sluice-agent: unknown command 'rm'\n");
        try (SocketChannel ch = agent.connect()) {
            DataOutputStream out = new DataOutputStream(Channels.newOutputStream(ch));
            out.write('R');
            out.writeInt(Integer.MAX_VALUE);
            out.flush();
            assertThat(Channels.newInputStream(ch).read()).as("closed").isEqualTo(-1);
        }
        assertThat(agent.run(List.of("noread"), Map.of(), dir, "").exitCode()).isEqualTo(4);
    }

    @Test
    void withoutAnAgentTheFrontEndRunsTheCommandInAJvm() throws Exception {
        assumeNative();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path launcher = bin.resolve("_sluice-java");
        Files.writeString(launcher, "#!/bin/sh\necho \"jvm $*\"\nexit 3\n");
        launcher.toFile().setExecutable(true);
        ProcessResult r = runNative(
                List.of(NATIVE.toString(), "squeue", "-h"),
                Map.of("SLUICE_AGENT_SOCKET", dir.resolve("absent.sock").toString(), "SLUICE_BIN", bin.toString()),
                null);
        assertThat(r.out()).isEqualTo("jvm dev.sluice.cli.Main squeue -h\n");
        assertThat(r.exit()).isEqualTo(3);
    }

    private static void assumeNative() {
        assumeTrue(Files.isExecutable(NATIVE), "the native front end is built where cc exists");
    }

    record ProcessResult(int exit, String out, String err) {}

    private ProcessResult runNative(List<String> cmd, Map<String, String> env, String stdin) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        Map<String, String> e = new HashMap<>(pb.environment());
        e.put("SLUICE_AGENT_SOCKET", agent.socket().toString());
        e.putAll(env);
        pb.environment().clear();
        pb.environment().putAll(e);
        if (stdin == null) {
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
        }
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new ProcessResult(
                p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    /** A hand-driven front end, for interleaving signals with output. */
    record Wire(DataInputStream in, DataOutputStream out) {
        static Wire start(SocketChannel ch, String command) throws IOException {
            DataOutputStream out = new DataOutputStream(Channels.newOutputStream(ch));
            byte[] run = AgentFrames.encodeRun(new AgentFrames.Run(List.of(command), Map.of(), "/"));
            AgentFrames.write(out, AgentFrames.RUN, run, 0, run.length);
            out.flush();
            return new Wire(new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch))), out);
        }

        String nextStdout() throws IOException {
            AgentFrames.Frame f = AgentFrames.read(in);
            assertThat(f.type()).isEqualTo(AgentFrames.STDOUT);
            return new String(f.payload(), StandardCharsets.UTF_8);
        }

        void signal(int signo) throws IOException {
            byte[] p = AgentFrames.exitPayload(signo);
            AgentFrames.write(out, AgentFrames.SIGNAL, p, 0, p.length);
            out.flush();
        }

        int exitCode() throws IOException {
            while (true) {
                AgentFrames.Frame f = AgentFrames.read(in);
                if (f.type() == AgentFrames.EXIT) {
                    return AgentFrames.intOf(f.payload());
                }
            }
        }
    }
}
