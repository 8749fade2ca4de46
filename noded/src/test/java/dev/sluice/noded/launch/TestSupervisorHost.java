package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.common.text.RawText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisor host: a fork per job, supervisors that outlive it, their ends reported. */
class TestSupervisorHost {
    @TempDir
    Path spool;

    private Supervisor supervisor;

    @BeforeEach
    void perl() throws Exception {
        assumeTrue(Supervisor.perlRuns(), "needs /usr/bin/perl");
        supervisor = Supervisor.install(spool, true);
    }

    private List<String> request(Path dir, List<String> job) throws Exception {
        Files.createDirectories(dir);
        return supervisor.arguments(dir, List.of(), job);
    }

    private static String fact(Path dir, String name) throws Exception {
        return Files.readString(dir.resolve(name)).strip();
    }

    @Test
    void eachRequestForksASupervisorThatRecordsItsJobAndTheHostReportsItsEnd() throws Exception {
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            for (int i = 0; i < 3; i++) {
                Path dir = spool.resolve("job0000" + i);
                var started = host.start(request(dir, List.of("/bin/sh", "-c", "exit " + (i + 3))));
                started.ended().get(10, TimeUnit.SECONDS);
                assertThat(fact(dir, Supervisor.EXIT)).isEqualTo(Integer.toString(i + 3));
                assertThat(fact(dir, Supervisor.SUPERVISOR_PID)).isEqualTo(Long.toString(started.pid()));
                assertThat(Integer.parseInt(fact(dir, Supervisor.WAIT_STATUS))).isEqualTo((i + 3) << 8);
            }
        }
    }

    @Test
    void whoeverWaitsOnAnEndNeverHoldsUpTheAnswerToTheNextStart() throws Exception {
        // The launcher reports an end under the monitor a launch holds while it waits for its
        // answer: a report run where answers are read would hold that answer up for good.
        Object monitor = new Object();
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            var first = host.start(request(spool.resolve("job00040"), List.of("/bin/sh", "-c", "exit 0")));
            var reported = first.ended().thenRun(() -> {
                synchronized (monitor) {
                    // the report
                }
            });
            synchronized (monitor) {
                await().atMost(Duration.ofSeconds(10)).until(() -> first.ended().isDone());
                var second = host.start(request(spool.resolve("job00041"), List.of("/bin/sh", "-c", "exit 0")));
                assertThat(second.pid()).isPositive();
                assertThat(reported).isNotDone();
            }
            reported.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void argumentsReachTheJobByteForByteEmptyOnesAndSpacesIncluded() throws Exception {
        Path dir = spool.resolve("job00010");
        Path out = spool.resolve("args.out");
        byte[] latin1 = {'x', (byte) 0xe9, ' ', 'y'};
        List<String> job = new ArrayList<>(
                List.of("/bin/sh", "-c", "for a in \"$@\"; do printf '[%s]' \"$a\"; done > " + out, "sh", "a b", ""));
        job.add(RawText.decode(latin1));
        job.add("");
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            host.start(request(dir, job)).ended().get(10, TimeUnit.SECONDS);
        }
        byte[] expected = new java.io.ByteArrayOutputStream() {
            {
                writeBytes("[a b][]".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                write('[');
                writeBytes(latin1);
                writeBytes("][]".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
        }.toByteArray();
        assertThat(Files.readAllBytes(out)).isEqualTo(expected);
    }

    @Test
    void aForkedSupervisorIsRecognisedByItsJobDirectoryAndOutlivesTheHost() throws Exception {
        Path dir = spool.resolve("job00020");
        Path release = spool.resolve("release");
        SupervisorHost host = supervisor.host().orElseThrow();
        var started = host.start(
                request(dir, List.of("/bin/sh", "-c", "while [ ! -e " + release + " ]; do sleep 0.05; done; exit 7")));
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve(Supervisor.JOB_PID)));
        Optional<String> pid = Optional.of(Long.toString(started.pid()));
        assertThat(Supervisor.alive(dir, pid)).isPresent();
        assertThat(Supervisor.alive(spool.resolve("job00021"), pid)).isEmpty();

        // The daemon stops: the host reads the end of its input and exits; the job runs on.
        host.close();
        ProcessHandle hostProcess =
                ProcessHandle.of(started.pid()).flatMap(ProcessHandle::parent).orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> !isHost(hostProcess));
        assertThat(Supervisor.alive(dir, pid)).as("re-adoptable").isPresent();
        Files.createFile(release);
        started.ended().get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve(Supervisor.EXIT)));
        assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("7");
    }

    @Test
    void whenTheHostDiesItsSupervisorsEndsStillArriveAndTheNextRequestStartsAnotherHost() throws Exception {
        Path dir = spool.resolve("job00030");
        Path release = spool.resolve("release30");
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            var started = host.start(request(
                    dir, List.of("/bin/sh", "-c", "while [ ! -e " + release + " ]; do sleep 0.05; done; exit 5")));
            ProcessHandle first = ProcessHandle.of(started.pid())
                    .flatMap(ProcessHandle::parent)
                    .orElseThrow();
            assertThat(isHost(first)).isTrue();
            first.destroyForcibly();
            await().atMost(Duration.ofSeconds(10)).until(() -> !first.isAlive());
            assertThat(started.ended()).isNotDone();
            Files.createFile(release);
            started.ended().get(30, TimeUnit.SECONDS);
            assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("5");

            Path next = spool.resolve("job00031");
            var again = host.start(request(next, List.of("/bin/sh", "-c", "exit 0")));
            again.ended().get(10, TimeUnit.SECONDS);
            assertThat(fact(next, Supervisor.EXIT)).isEqualTo("0");
        }
    }

    private static boolean isHost(ProcessHandle process) {
        return process.isAlive()
                && process.info()
                        .arguments()
                        .map(a -> List.of(a).contains("--serve"))
                        .orElse(false);
    }
}
