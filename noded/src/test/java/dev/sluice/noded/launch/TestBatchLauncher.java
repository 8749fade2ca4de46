package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.BatchJobBuilder;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.PrologCompleteRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The batch launcher end to end on this machine: a script runs as its job would under slurmd,
 * with Slurm's environment, and its end reaches the outbox exactly as the controller is told it
 * (status, end state); time limits count on the injected clock, not the wall clock.
 */
class TestBatchLauncher extends BatchLauncherTestBase {
    private static final int JOB = 4242;
    /** The controller's clock when the job started: far from the wall clock on purpose. */
    private static final Instant START = Instant.parse("2021-03-04T05:06:07Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(START);
    private final List<String> stepSignals = new CopyOnWriteArrayList<>();

    @Override
    InstantSource clock() {
        return now::get;
    }

    @Override
    BatchLauncher newLauncher(LaunchSetup setup, Outbox outbox) throws IOException {
        return new BatchLauncher(setup, outbox, (job, signal) -> stepSignals.add(job + ":" + signal));
    }

    private BatchJob request(String script, int timeLimitMinutes, int restartCount) {
        BatchJobBuilder job = job(JOB, script)
                .layout(new BatchJob.Layout("c1", "n[7-8]", 2, 0, "", ""))
                .cpus(3)
                .charge("debug", "", "", "")
                .start(START)
                .killWait(Duration.ofSeconds(1))
                .restartCount(restartCount)
                .env("KEPT", "from the submitter")
                .env("SLURM_JOB_ID", "1")
                .owner(uid(), gid(), System.getProperty("user.name"));
        if (timeLimitMinutes > 0) {
            job.timeLimit(Duration.ofMinutes(timeLimitMinutes));
        }
        return job.build();
    }

    private void awaitStarted() {
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(work.resolve("started")));
    }

    @Test
    void theScriptRunsInItsDirectoryWithSlurmsEnvironmentAndItsExitStatusIsReported() throws Exception {
        launch(request(
                "echo \"$SLURM_JOB_ID $SLURM_JOB_NODELIST $SLURM_NNODES $SLURMD_NODENAME $SLURM_CPUS_ON_NODE"
                        + " $SLURM_JOB_PARTITION $SLURM_CLUSTER_NAME $ENVIRONMENT $(pwd)\"\n"
                        + "echo \"$KEPT\"\necho to-err >&2\nexit 3",
                0,
                0));

        JobCompleteRequest report = awaitReport(JOB);

        assertThat(report.getNodeName()).isEqualTo("n7");
        // exit 3 as wait(2) writes it: sacct's ExitCode 3:0.
        assertThat(report.getExitStatus()).isEqualTo(3 << 8);
        assertThat(report.getEndState()).isEqualTo(JobState.JOB_STATE_UNSPECIFIED);
        // Slurm's variables win over what the submitter exported; the rest comes through.
        assertThat(file("out-" + JOB + ".txt"))
                .isEqualTo(JOB + " n[7-8] 2 n7 3 debug c1 BATCH " + work + "\nfrom the submitter\n");
        assertThat(file("err-" + JOB + ".txt")).isEqualTo("to-err\n");
        assertThat(launcher.runningJobIds()).isEmpty();
        // Its steps' tasks go with it.
        assertThat(stepSignals).contains(JOB + ":KILL");
    }

    @Test
    void aSignalSentToTheJobIsReportedAsThatSignal() throws Exception {
        launch(request("touch started\nsleep 30", 0, 0));
        awaitStarted();

        assertThat(launcher.signal(JOB, 10, false)).isTrue();

        JobCompleteRequest report = awaitReport(JOB);
        // Died of SIGUSR1: sacct's ExitCode 0:10, and no end state of the node's own.
        assertThat(report.getExitStatus()).isEqualTo(10);
        assertThat(report.getEndState()).isEqualTo(JobState.JOB_STATE_UNSPECIFIED);
        assertThat(launcher.signal(JOB, 10, false)).as("no longer runs").isFalse();
    }

    @Test
    void aLaunchArrivingAfterItsTimeLimitEndsTheJobAsTimeout() throws Exception {
        // Two minutes after its start by the controller's clock: a one-minute limit has passed.
        now.set(START.plusSeconds(120));
        launch(request("touch started\nsleep 30", 1, 0));

        JobCompleteRequest report = awaitReport(JOB);

        assertThat(report.getEndState()).isEqualTo(JobState.TIMEOUT);
        // TERM, even when it came while the job was still being set up: never KILL after KillWait.
        assertThat(report.getExitStatus()).isEqualTo(15);
        assertThat(stepSignals).contains(JOB + ":TERM");
        assertThat(file("err-" + JOB + ".txt")).isEqualTo(timeLimitLine(START.plusSeconds(120)));
    }

    /** A Prolog that holds the job until the test creates {@code release} in the working directory. */
    private Path holdingProlog() throws Exception {
        Path prolog = dir.resolve("prolog.sh");
        Files.writeString(prolog, "#!/bin/sh\nwhile [ ! -e " + work.resolve("release") + " ]; do sleep 0.05; done\n");
        Files.setPosixFilePermissions(prolog, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return prolog;
    }

    @Test
    void aTimeLimitUsedUpAtLaunchIsAnnouncedInTheErrorFileTheJobOpensAfterwards() throws Exception {
        policy.set(LaunchPolicy.scripts(List.of(holdingProlog().toString()), List.of()));
        now.set(START.plusSeconds(120));
        launch(request("echo ran\nsleep 30", 1, 0));
        // The limit is enforced while the Prolog still runs: the job has neither pid nor files yet.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> spool.fact(JOB, RunningJob.END_STATE).isPresent());
        assertThat(spool.fact(JOB, Supervisor.JOB_PID)).isEmpty();

        Files.createFile(work.resolve("release"));

        JobCompleteRequest report = awaitReport(JOB);
        // The line survives the job's opening (truncating) its error file, once.
        assertThat(file("err-" + JOB + ".txt")).isEqualTo(timeLimitLine(START.plusSeconds(120)));
        assertThat(file("out-" + JOB + ".txt")).isEmpty();
        assertThat(report.getEndState()).isEqualTo(JobState.TIMEOUT);
        assertThat(report.getExitStatus()).isEqualTo(15);
    }

    @Test
    void aCancelBeforeTheJobLeadsItsOwnSessionEndsItByTerm() throws Exception {
        policy.set(LaunchPolicy.scripts(List.of(holdingProlog().toString()), List.of()));
        launch(request("echo ran\nexit 0", 0, 0));

        // Before its process group exists: Slurm's scancel of a just-started job still ends it by
        // SIGTERM (sacct's ExitCode 0:15), never by KILL after KillWait nor by running it.
        launcher.terminate(JOB, dev.sluice.common.slurm.JobState.CANCELLED, 0);
        Files.createFile(work.resolve("release"));

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getEndState()).isEqualTo(JobState.CANCELLED);
        assertThat(report.getExitStatus()).isEqualTo(15);
        assertThat(file("out-" + JOB + ".txt")).isEmpty();
        assertThat(file("err-" + JOB + ".txt"))
                .startsWith("slurmstepd-n7: error: *** JOB " + JOB + " ON n7 CANCELLED AT ");
        assertThat(file("err-" + JOB + ".txt").lines()).hasSize(1);
    }

    @Test
    void aSignalDuringThePrologIsDroppedAndTheJobRunsToItsOwnEnd() throws Exception {
        policy.set(LaunchPolicy.scripts(List.of(holdingProlog().toString()), List.of()));
        launch(request("echo ran\nexit 0", 0, 0));

        // As Slurm 22.05's slurmd, which finds no step to signal while the Prolog runs.
        assertThat(launcher.signal(JOB, 10, false)).as("the job is here").isTrue();
        Files.createFile(work.resolve("release"));

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getExitStatus()).isZero();
        assertThat(report.getEndState()).isEqualTo(JobState.JOB_STATE_UNSPECIFIED);
        assertThat(file("out-" + JOB + ".txt")).isEqualTo("ran\n");
        // Without PrologFlags=Alloc the controller waits for no Prolog: nothing to tell it.
        assertThat(outbox.takePrologsDone()).isEmpty();
    }

    @Test
    void underPrologFlagsAllocTheControllerHearsOnceThatThePrologIsDoneAndNotBefore() throws Exception {
        Path prolog = dir.resolve("prolog-alloc.sh");
        Files.writeString(
                prolog,
                "#!/bin/sh\ntouch " + work.resolve("prolog-started") + "\nwhile [ ! -e " + work.resolve("release")
                        + " ]; do sleep 0.05; done\n");
        Files.setPosixFilePermissions(prolog, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        policy.set(LaunchPolicy.scripts(List.of(prolog.toString()), List.of()).withPrologAtAllocation(true));
        launch(request("echo ran\nexit 0", 0, 3));

        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(work.resolve("prolog-started")));
        // The job shows reason Prolog at the controller until this notice.
        assertThat(outbox.takePrologsDone()).isEmpty();

        Files.createFile(work.resolve("release"));
        List<PrologCompleteRequest> told = new CopyOnWriteArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            told.addAll(outbox.takePrologsDone());
            return !told.isEmpty();
        });
        assertThat(told)
                .containsExactly(PrologCompleteRequest.newBuilder()
                        .setNodeName("n7")
                        .setJobId(JOB)
                        .setRestartCount(3)
                        .build());
        assertThat(awaitReport(JOB).getExitStatus()).isZero();
        assertThat(outbox.takePrologsDone()).as("told once").isEmpty();
    }

    private static String timeLimitLine(Instant at) {
        String time = LocalDateTime.ofInstant(at, ZoneId.systemDefault())
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss"));
        return "slurmstepd-n7: error: *** JOB " + JOB + " ON n7 CANCELLED AT " + time + " DUE TO TIME LIMIT ***\n";
    }

    @Test
    void theTimeLimitCountsRunTimeOnTheInjectedClockAndEndsTheJobWithSlurmsLine() throws Exception {
        launch(request("touch started\nsleep 30", 1, 0));
        awaitStarted();

        // Ran 70 s, then suspended for 30 s: resumed, its one-minute limit has passed.
        now.set(START.plusSeconds(70));
        assertThat(launcher.suspend(JOB, true)).isTrue();
        Instant resumed = START.plusSeconds(100);
        now.set(resumed);
        launcher.suspend(JOB, false);

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getEndState()).isEqualTo(JobState.TIMEOUT);
        assertThat(report.getExitStatus()).isEqualTo(15);
        String at = LocalDateTime.ofInstant(resumed, ZoneId.systemDefault())
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss"));
        assertThat(file("err-" + JOB + ".txt"))
                .isEqualTo("slurmstepd-n7: error: *** JOB " + JOB + " ON n7 CANCELLED AT " + at
                        + " DUE TO TIME LIMIT ***\n");
    }

    @Test
    void timeSpentSuspendedDoesNotCountTowardsTheTimeLimit() throws Exception {
        launch(request("touch started\nwhile [ ! -e go ]; do sleep 0.1; done\nexit 0", 1, 0));
        awaitStarted();

        // Ran 30 s, then suspended for 15 minutes: 30 s of its minute are left.
        now.set(START.plusSeconds(30));
        launcher.suspend(JOB, true);
        now.set(START.plusSeconds(930));
        launcher.suspend(JOB, false);
        Files.createFile(work.resolve("go"));

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getEndState()).isEqualTo(JobState.JOB_STATE_UNSPECIFIED);
        assertThat(report.getExitStatus()).isZero();
    }

    @Test
    void aTimeLimitWithTimeLeftOnTheInjectedClockLetsTheJobEnd() throws Exception {
        // The wall clock is years past START: only the injected clock says the limit is not used up.
        launch(request("sleep 1\nexit 0", 1, 0));

        JobCompleteRequest report = awaitReport(JOB);

        assertThat(report.getEndState()).isEqualTo(JobState.JOB_STATE_UNSPECIFIED);
        assertThat(report.getExitStatus()).isZero();
        assertThat(file("err-" + JOB + ".txt")).doesNotContain("CANCELLED");
    }

    @Test
    void terminateEndsTheJobAsCancelledAndItsStepsHearTermThenKill() throws Exception {
        launch(request("touch started\nsleep 30", 0, 0));
        awaitStarted();

        launcher.terminate(JOB, dev.sluice.common.slurm.JobState.CANCELLED, 0);

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getEndState()).isEqualTo(JobState.CANCELLED);
        assertThat(report.getExitStatus()).isEqualTo(15);
        // The job's own end (its report) may tell them KILL before the TERM reaches them.
        assertThat(stepSignals).contains(JOB + ":TERM", JOB + ":KILL");
        assertThat(file("err-" + JOB + ".txt")).contains("*** JOB " + JOB + " ON n7 CANCELLED AT ");
    }

    @Test
    void aTerminateThatOvertakesItsLaunchEndsThatRunAtOnce() throws Exception {
        launcher.terminate(JOB, dev.sluice.common.slurm.JobState.CANCELLED, 0);
        launch(request("touch started\nsleep 30", 0, 0));

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getEndState()).isEqualTo(JobState.CANCELLED);
        assertThat(report.getRestartCount()).isZero();
    }

    @Test
    void aLaunchRepeatedAfterTheRunEndedRunsNothingButARequeuedRunDoes() throws Exception {
        BatchJob first = request("echo ran >> runs", 0, 0);
        launch(first);
        awaitReport(JOB);
        outbox.delivered(JOB);

        // The controller's retry of the same run, its first answer having come late.
        launch(first);
        assertThat(launcher.runningJobIds()).isEmpty();
        assertThat(outbox.reports()).isEmpty();

        launch(request("echo ran >> runs", 0, 1));
        assertThat(awaitReport(JOB).getRestartCount()).isEqualTo(1);
        assertThat(file("runs")).isEqualTo("ran\nran\n");
    }
}
