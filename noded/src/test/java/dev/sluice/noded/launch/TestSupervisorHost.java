package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.common.text.RawText;
import dev.sluice.noded.spool.JobFacts;
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

/**
 * The supervisor host: the parent of every job, which carries out each job's life, reports its
 * end, outlives its daemon until its last job is over, and is known again by its token. Here the
 * C host, as a node daemon runs it; the Perl host in {@link TestSupervisorHostInPerl}.
 */
class TestSupervisorHost {
    @TempDir
    Path spool;

    private Supervisor supervisor;

    Supervisor.HostProgram program() {
        return Supervisor.HostProgram.C;
    }

    @BeforeEach
    void install() throws Exception {
        assumeTrue(Supervisor.perlRuns(), "needs /usr/bin/perl");
        supervisor = Supervisor.install(spool, true, program());
        assumeTrue(
                supervisor.hostInC() == (program() == Supervisor.HostProgram.C),
                "sluice-noded was built without a C compiler");
    }

    private List<String> request(Path dir, List<String> job) throws Exception {
        Files.createDirectories(dir);
        return supervisor.arguments(dir, List.of(), job);
    }

    /**
     * A job that waits for {@code release}, then runs {@code then}; it also ends once the test's
     * directory is gone, so a failed test leaves nothing running.
     */
    private List<String> untilReleased(Path release, String then) {
        return List.of(
                "/bin/sh",
                "-c",
                "while [ ! -e " + release + " ] && [ -d " + spool + " ]; do sleep 0.05; done; " + then);
    }

    private static String fact(Path dir, String name) throws Exception {
        return JobFacts.of(dir).value(name).orElseThrow(() -> new AssertionError("no " + name + " in " + dir));
    }

    @Test
    void theHostIsEachJobsParentRecordsItsStatusAndReportsItsEndOnceTheFactsAreWritten() throws Exception {
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            long hostPid = -1;
            for (int i = 0; i < 3; i++) {
                Path dir = spool.resolve("job0000" + i);
                Path parent = dir.resolve("parent");
                var started = host.start(request(
                        dir,
                        List.of("/bin/sh", "-c", "awk '{print $4}' /proc/$$/stat > " + parent + "; exit " + (i + 3))));
                started.ended().get(10, TimeUnit.SECONDS);
                assertThat(fact(dir, Supervisor.EXIT)).isEqualTo(Integer.toString(i + 3));
                assertThat(fact(dir, Supervisor.SUPERVISOR_PID)).isEqualTo(Long.toString(started.pid()));
                assertThat(Files.readString(parent).strip())
                        .as("no process between host and job")
                        .isEqualTo(Long.toString(started.pid()));
                assertThat(Integer.parseInt(fact(dir, Supervisor.WAIT_STATUS))).isEqualTo((i + 3) << 8);
                assertThat(JobFacts.of(dir).has(Supervisor.DONE)).isTrue();
                assertThat(hostPid == -1 || hostPid == started.pid())
                        .as("one host for all")
                        .isTrue();
                hostPid = started.pid();
            }
        }
    }

    @Test
    void theHostRunsPrologAndEpilogOnceInTheJobsCgroupsAndAFailedPrologStartsNoJob() throws Exception {
        Path cg = Files.createDirectories(spool.resolve("cg/job"));
        Files.writeString(cg.resolve("cgroup.procs"), "");
        Path log = spool.resolve("order");
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            Path dir = Files.createDirectories(spool.resolve("job00050"));
            script(dir.resolve("prolog"), "echo prolog >> " + log);
            script(dir.resolve("epilog"), "echo epilog >> " + log + "; exit 3");
            var started = host.start(supervisor.arguments(
                    dir, Supervisor.cgroupOptions(List.of(cg)), List.of("/bin/sh", "-c", "echo job >> " + log)));
            started.ended().get(10, TimeUnit.SECONDS);
            assertThat(Files.readAllLines(log)).containsExactly("prolog", "job", "epilog");
            assertThat(JobFacts.of(dir).has(Supervisor.PROLOG_DONE)).isTrue();
            assertThat(fact(dir, Supervisor.EPILOG_FAILED)).isEqualTo("3");
            assertThat(Files.readAllLines(cg.resolve("cgroup.procs")))
                    .as("Prolog, job and Epilog each joined; the host did not")
                    .hasSize(3)
                    .doesNotContain(Long.toString(started.pid()));

            Path failing = Files.createDirectories(spool.resolve("job00051"));
            script(failing.resolve("prolog"), "exit 4");
            host.start(request(failing, List.of("/bin/sh", "-c", "echo never >> " + log)))
                    .ended()
                    .get(10, TimeUnit.SECONDS);
            assertThat(fact(failing, Supervisor.PROLOG_FAILED)).isEqualTo("4");
            assertThat(JobFacts.of(failing).has(Supervisor.JOB_PID)).isFalse();
            assertThat(JobFacts.of(failing).has(Supervisor.WAIT_STATUS)).isFalse();
            assertThat(Files.readAllLines(log)).doesNotContain("never");
        }
    }

    private static void script(Path file, String body) throws Exception {
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    }

    /** The job's files, as a batch job's: its standard error is {@code err}. */
    private List<String> withFiles(Path dir, Path err, List<String> job) throws Exception {
        Files.createDirectories(dir);
        List<String> io = List.of("--io", "/tmp", "/dev/null", err.toString(), "/dev/null", "n1", "0");
        return supervisor.arguments(dir, io, job);
    }

    /**
     * An end the daemon asked for before the job's pid was there (end_state, end_notice): the job
     * dies of SIGTERM before its command runs, with slurmstepd's line in its error file.
     */
    @Test
    void anEndAskedForBeforeTheJobRunsEndsItBySigtermWithTheNotice() throws Exception {
        Path dir = Files.createDirectories(spool.resolve("job00060"));
        Path err = spool.resolve("err60");
        Path ran = spool.resolve("ran60");
        JobFacts.append(dir, "end_state", "CANCELLED");
        Files.writeString(dir.resolve("end_notice"), "slurmstepd: error: *** JOB 60 CANCELLED ***\n");
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            host.start(withFiles(dir, err, List.of("/bin/sh", "-c", "touch " + ran)))
                    .ended()
                    .get(10, TimeUnit.SECONDS);
        }
        assertThat(Integer.parseInt(fact(dir, Supervisor.WAIT_STATUS))).isEqualTo(15);
        assertThat(ran).doesNotExist();
        assertThat(Files.readString(err)).isEqualTo("slurmstepd: error: *** JOB 60 CANCELLED ***\n");
        assertThat(dir.resolve("end_notice.claimed")).exists();
    }

    /** A job has its three standard files and nothing of the host's: its pipes, other jobs' pipes. */
    @Test
    void aJobInheritsNoDescriptorOfTheHostsOrOfOtherJobs() throws Exception {
        Path release = spool.resolve("release62");
        Path fds = spool.resolve("fds63");
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            Path waiting = spool.resolve("job00062");
            var other = host.start(request(waiting, untilReleased(release, "exit 0")));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> JobFacts.of(waiting).has(Supervisor.JOB_PID));
            // Its output file is its standard output: a shell's own redirection would save a descriptor.
            Path dir = Files.createDirectories(spool.resolve("job00063"));
            List<String> io = List.of("--io", "/tmp", fds.toString(), fds.toString(), "/dev/null", "n1", "0");
            host.start(supervisor.arguments(dir, io, List.of("/bin/sh", "-c", "ls /proc/$$/fd")))
                    .ended()
                    .get(10, TimeUnit.SECONDS);
            Files.createFile(release);
            other.ended().get(10, TimeUnit.SECONDS);
        }
        assertThat(Files.readAllLines(fds)).containsExactly("0", "1", "2");
    }

    /** A command that cannot be executed: errno as its exit status, and the reason in its error file. */
    @Test
    void aCommandThatCannotRunExitsWithErrnoAndSaysWhy() throws Exception {
        Path dir = spool.resolve("job00061");
        Path err = spool.resolve("err61");
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            host.start(withFiles(dir, err, List.of("/no/such/program"))).ended().get(10, TimeUnit.SECONDS);
        }
        assertThat(Integer.parseInt(fact(dir, Supervisor.WAIT_STATUS))).isEqualTo(2 << 8);
        assertThat(Files.readString(err))
                .isEqualTo("slurmstepd: error: execve(): /no/such/program: No such file or directory\n");
    }

    @Test
    void whoeverWaitsOnAnEndNeverHoldsUpTheAnswerToTheNextStart() throws Exception {
        // The launcher reports an end under the monitor a launch holds while it waits for its
        // answer: a report run where answers are read would hold that answer up for good.
        Object monitor = new Object();
        Path release = spool.resolve("release40");
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            // Held until the report is attached: a job that ended first would have the report run
            // at once on this thread, before the monitor is taken.
            var first = host.start(request(spool.resolve("job00040"), untilReleased(release, "exit 0")));
            var reported = first.ended().thenRun(() -> {
                synchronized (monitor) {
                    // the report
                }
            });
            SupervisorHost.Started second;
            synchronized (monitor) {
                Files.createFile(release);
                await().atMost(Duration.ofSeconds(10)).until(() -> first.ended().isDone());
                second = host.start(request(spool.resolve("job00041"), List.of("/bin/sh", "-c", "exit 0")));
                assertThat(second.pid()).isPositive();
                assertThat(reported).isNotDone();
            }
            reported.get(10, TimeUnit.SECONDS);
            // Its facts are written before the test's directory goes.
            second.ended().get(10, TimeUnit.SECONDS);
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
    void aHostLetGoStaysUntilItsLastJobIsOverAndIsKnownAgainByItsToken() throws Exception {
        Path dir = spool.resolve("job00020");
        Path release = spool.resolve("release");
        SupervisorHost host = supervisor.host().orElseThrow();
        var started = host.start(request(dir, untilReleased(release, "exit 7")));
        await().atMost(Duration.ofSeconds(10)).until(() -> JobFacts.of(dir).has(Supervisor.JOB_PID));
        Optional<String> pid = Optional.of(Long.toString(started.pid()));
        assertThat(KnownSupervisor.of(dir, pid)).isPresent();
        Path other = Files.createDirectories(spool.resolve("job00021"));
        assertThat(KnownSupervisor.of(other, pid)).as("no token").isEmpty();
        JobFacts.append(other, Supervisor.HOST, "another-host");
        assertThat(KnownSupervisor.of(other, pid)).as("another host's token").isEmpty();

        // The daemon stops: the host takes no more jobs but stays while its job runs.
        host.close();
        ProcessHandle hostProcess = ProcessHandle.of(started.pid()).orElseThrow();
        var known = KnownSupervisor.of(dir, pid).orElseThrow();
        assertThat(known.pid()).isEqualTo(started.pid());
        assertThat(hostProcess.isAlive()).isTrue();
        assertThat(known.done()).isNotDone();
        Files.createFile(release);
        known.done().get(10, TimeUnit.SECONDS);
        assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("7");
        await().atMost(Duration.ofSeconds(10)).until(() -> !hostProcess.isAlive());
        assertThat(KnownSupervisor.of(dir, pid)).isEmpty();
    }

    @Test
    void whenTheHostDiesItsJobsEndAtOnceWithoutAStatusAndTheNextRequestStartsAnotherHost() throws Exception {
        Path dir = spool.resolve("job00030");
        Path release = spool.resolve("release30");
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            var started = host.start(request(dir, untilReleased(release, "exit 5")));
            ProcessHandle first = ProcessHandle.of(started.pid()).orElseThrow();
            assertThat(isHost(first)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> JobFacts.of(dir).has(Supervisor.JOB_PID));
            first.destroyForcibly();
            started.ended().get(30, TimeUnit.SECONDS);
            assertThat(JobFacts.of(dir).has(Supervisor.WAIT_STATUS)).isFalse();
            Files.createFile(release);

            Path next = spool.resolve("job00031");
            var again = host.start(request(next, List.of("/bin/sh", "-c", "exit 0")));
            again.ended().get(10, TimeUnit.SECONDS);
            assertThat(again.pid()).isNotEqualTo(started.pid());
            assertThat(fact(next, Supervisor.EXIT)).isEqualTo("0");
        }
    }

    private static boolean isHost(ProcessHandle process) {
        try {
            return process.isAlive()
                    && Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"))
                            .contains(KnownSupervisor.SERVE);
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
