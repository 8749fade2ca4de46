package dev.sluice.cli.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.sluice.common.systemd.SdNotify;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice-agent}'s command line, and its part in a {@code Type=notify} unit: READY=1 once
 * the socket takes callers, STOPPING=1 on the way out. A datagram socket bound here stands in
 * for systemd's.
 */
class TestAgentMain {
    private static final int MSG_DONTWAIT = 0x40;

    @TempDir
    Path dir;

    record Run(int rc, String out, String err) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = AgentMain.run(
                args,
                Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                CompletableFuture.completedFuture(null));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpListsTheOptionsAndExitsZero() {
        for (String help : List.of("-h", "--help")) {
            Run r = run("-D", help);
            assertThat(r.rc()).isZero();
            assertThat(r.err()).isEmpty();
            assertThat(r.out())
                    .isEqualTo(AgentMain.OPTIONS.usage())
                    .startsWith("Usage: sluice-agent [OPTIONS]\n")
                    .contains("\n   -D ", "\n   -h, --help ", "\n   --socket path ");
        }
    }

    @Test
    void aWrongCommandLineIsAUsageError() {
        String usage = AgentMain.OPTIONS.usage();
        assertThat(run("--sock", "/x"))
                .isEqualTo(new Run(1, "", "sluice-agent: unrecognized option '--sock'\n" + usage));
        assertThat(run("--socket"))
                .isEqualTo(new Run(1, "", "sluice-agent: option '--socket' requires an argument\n" + usage));
    }

    @Test
    void readyIsSentOnceTheSocketListensAndStoppingOnTheWayOut() throws Exception {
        Path socket = dir.resolve("run/sluice/agent.sock");
        String notify = dir.resolve("notify").toString();
        try (Receiver systemd = new Receiver(notify)) {
            CompletableFuture<Void> stop = new CompletableFuture<>();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            CompletableFuture<Integer> agent = CompletableFuture.supplyAsync(() -> AgentMain.run(
                    new String[] {"-D", "--socket", socket.toString()},
                    Map.of("NOTIFY_SOCKET", notify),
                    System.out,
                    new PrintStream(err, true, StandardCharsets.UTF_8),
                    stop));
            List<String> got = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> systemd.poll(got), m -> m.size() == 1);
            assertThat(got.get(0)).isEqualTo("READY=1\nSTATUS=serving commands on " + socket);
            // Ready means ready: the socket (and its directory, made by the agent) is there.
            assertThat(AgentServer.answers(socket)).isTrue();

            stop.complete(null);
            assertThat(agent.get()).as(err.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(systemd.poll(got)).containsExactly(got.get(0), "STOPPING=1");
            assertThat(Files.exists(socket)).isFalse();
        }
    }

    @Test
    void aSocketItCannotListenOnStopsItBeforeReady() throws Exception {
        Path blocked = dir.resolve("file");
        Files.writeString(blocked, "not a directory");
        String notify = dir.resolve("notify").toString();
        try (Receiver systemd = new Receiver(notify)) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = AgentMain.run(
                    new String[] {"--socket", blocked.resolve("agent.sock").toString()},
                    Map.of("NOTIFY_SOCKET", notify),
                    System.out,
                    new PrintStream(err, true, StandardCharsets.UTF_8),
                    new CompletableFuture<>());
            assertThat(rc).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .startsWith("sluice-agent: fatal: cannot listen on " + blocked.resolve("agent.sock"));
            assertThat(systemd.poll(new ArrayList<>())).isEmpty();
        }
    }

    /** A bound AF_UNIX datagram socket, as systemd holds NOTIFY_SOCKET. */
    private static final class Receiver implements AutoCloseable {
        private final int fd;

        Receiver(String name) {
            fd = Sockets.INSTANCE.socket(1, 2, 0);
            byte[] addr = SdNotify.sockaddrUn(name);
            Sockets.INSTANCE.bind(fd, addr, addr.length);
        }

        /** Adds what has arrived since the last call to {@code got}; returns it. */
        List<String> poll(List<String> got) {
            byte[] buf = new byte[4096];
            while (true) {
                long n;
                try {
                    n = Sockets.INSTANCE.recv(fd, buf, buf.length, MSG_DONTWAIT);
                } catch (LastErrorException e) {
                    return got; // EAGAIN: nothing more for now
                }
                got.add(new String(buf, 0, (int) n, StandardCharsets.UTF_8));
            }
        }

        @Override
        public void close() {
            Sockets.INSTANCE.close(fd);
        }
    }

    interface Sockets extends Library {
        Sockets INSTANCE = Native.load("c", Sockets.class);

        int socket(int domain, int type, int protocol) throws LastErrorException;

        int bind(int fd, byte[] addr, int addrlen) throws LastErrorException;

        long recv(int fd, byte[] buf, long len, int flags) throws LastErrorException;

        int close(int fd);
    }
}
