package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.BatchJobBuilder;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.JobState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The batch launcher with the shell supervisor, the one a node without {@code /usr/bin/perl}
 * runs (chosen here where Perl runs too): real processes, the injected clock, and a Prolog the
 * test holds to open the windows between a launch and the job's process deterministically.
 */
class TestBatchLauncherWithoutPerl extends BatchLauncherTestBase {
    private static final int JOB = 4343;
    private static final int USER = 1001; // sluiceuser1, made by .ci/run
    private static final Instant START = Instant.parse("2021-03-04T05:06:07Z");

    @Override
    InstantSource clock() {
        return () -> START;
    }

    @Override
    BatchLauncher newLauncher(LaunchSetup setup, Outbox outbox) throws IOException {
        return new BatchLauncher(
                setup,
                outbox,
                (job, signal) -> {},
                Supervisor.install(setup.spool().root(), false));
    }

    private BatchJob request(String script) {
        return asDaemonUser(script).build();
    }

    private BatchJobBuilder asDaemonUser(String script) {
        var unix = new com.sun.security.auth.module.UnixSystem();
        return as(script, (int) unix.getUid(), (int) unix.getGid(), System.getProperty("user.name"));
    }

    private BatchJob request(String script, int uid, int gid, String user) {
        return as(script, uid, gid, user).build();
    }

    private BatchJobBuilder as(String script, int uid, int gid, String user) {
        return job(JOB, script)
                .layout(new BatchJob.Layout("c1", "n7", 1, 0, "", ""))
                .cpus(1)
                .charge("debug", "", "", "")
                .start(START)
                .killWait(Duration.ofSeconds(1))
                .owner(uid, gid, user);
    }

    /** A Prolog that holds the job until the test creates {@code release} in the working directory. */
    private void holdInProlog() throws Exception {
        Path prolog = dir.resolve("prolog.sh");
        Files.writeString(prolog, "#!/bin/sh\nwhile [ ! -e " + work.resolve("release") + " ]; do sleep 0.05; done\n");
        Files.setPosixFilePermissions(prolog, PosixFilePermissions.fromString("rwxr-xr-x"));
        policy.set(LaunchPolicy.scripts(List.of(prolog.toString()), List.of()));
    }

    @Test
    void theScriptRunsInItsDirectoryWithItsFilesAndItsExitStatusIsReported() throws Exception {
        launch(request("echo \"$SLURM_JOB_ID $SLURMD_NODENAME $(pwd)\"\necho to-err >&2\nexit 3"));

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getExitStatus()).isEqualTo(3 << 8);
        assertThat(report.getEndState()).isEqualTo(JobState.JOB_STATE_UNSPECIFIED);
        assertThat(file("out-" + JOB + ".txt")).isEqualTo(JOB + " n7 " + work + "\n");
        assertThat(file("err-" + JOB + ".txt")).isEqualTo("to-err\n");
    }

    /**
     * A root daemon: the job's process publishes its pid as root, then becomes the user before
     * anything of the job runs, so the job and its files are the user's and the spool is not.
     */
    @Test
    void asRootTheJobRunsAsItsUserWithTheUsersFilesAndCannotWriteTheSpool() throws Exception {
        assumeTrue(uid() == 0, "needs root");
        assumeTrue(
                Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(l -> l.startsWith("sluiceuser1:")),
                "needs sluiceuser1 (made by .ci/run)");
        var user = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("sluiceuser1");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setOwner(work, user);
        Path jobDir = spool.jobDir(JOB);
        launch(request(
                "id -u\ntouch " + jobDir.resolve("planted") + " 2>/dev/null || echo denied\nexit 0",
                USER,
                USER,
                "sluiceuser1"));

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getExitStatus()).isZero();
        assertThat(file("out-" + JOB + ".txt")).isEqualTo(USER + "\ndenied\n");
        assertThat(Files.getOwner(work.resolve("out-" + JOB + ".txt"))).isEqualTo(user);
        assertThat(jobDir.resolve("planted")).doesNotExist();
    }

    @Test
    void aCancelDuringThePrologEndsTheJobByTermBeforeItRunsWithSlurmsLineOnce() throws Exception {
        holdInProlog();
        launch(request("touch ran\nexit 0"));

        // No pid yet: the job's own process delivers the end once it leads its session.
        launcher.terminate(JOB, dev.sluice.common.slurm.JobState.CANCELLED, 0);
        assertThat(spool.fact(JOB, Supervisor.JOB_PID)).isEmpty();
        Files.createFile(work.resolve("release"));

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getEndState()).isEqualTo(JobState.CANCELLED);
        assertThat(report.getExitStatus()).as("TERM, not KILL after KillWait").isEqualTo(15);
        assertThat(work.resolve("ran")).doesNotExist();
        assertThat(file("err-" + JOB + ".txt").lines())
                .singleElement()
                .asString()
                .startsWith("slurmstepd-n7: error: *** JOB " + JOB + " ON n7 CANCELLED AT ");
    }

    /**
     * Slurm 22.05's slurmd signals a job's steps, the batch step included, through their
     * slurmstepd; while the Prolog runs there is none, and the signal is dropped, not kept. It
     * used to wait up to 5 s of wall clock for the job's pid here (so a short Prolog let it
     * through) and mark the job signalled all the same, so that without Perl a job that exits
     * 128+N was reported as killed by signal N.
     */
    @Test
    void aSignalDuringThePrologIsDroppedAndTheJobsOwnExitStatusStands() throws Exception {
        holdInProlog();
        launch(request("echo ran\nexit 138"));

        assertThat(launcher.signal(JOB, 10, false)).as("the job is here").isTrue();
        Files.createFile(work.resolve("release"));

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getExitStatus()).as("exit 138, ExitCode 138:0").isEqualTo(138 << 8);
        assertThat(report.getEndState()).isEqualTo(JobState.JOB_STATE_UNSPECIFIED);
        assertThat(file("out-" + JOB + ".txt")).isEqualTo("ran\n");
    }

    @Test
    void aSignalOnceTheJobRunsIsReportedAsThatSignalAndACancelAsCancelled() throws Exception {
        launch(request("touch started\nsleep 30"));
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(work.resolve("started")));

        assertThat(launcher.signal(JOB, 10, false)).isTrue();
        assertThat(awaitReport(JOB).getExitStatus()).isEqualTo(10);

        outbox.delivered(JOB);
        Files.delete(work.resolve("started"));
        launch(asDaemonUser("touch started\nsleep 30").restartCount(1).build());
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(work.resolve("started")));
        launcher.terminate(JOB, dev.sluice.common.slurm.JobState.CANCELLED, 1);

        JobCompleteRequest report = awaitReport(JOB);
        assertThat(report.getEndState()).isEqualTo(JobState.CANCELLED);
        assertThat(report.getExitStatus()).isEqualTo(15);
        assertThat(file("err-" + JOB + ".txt")).contains("*** JOB " + JOB + " ON n7 CANCELLED AT ");
    }
}
