package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batch launcher with the shell supervisor, the one a node without {@code /usr/bin/perl}
 * runs (chosen here where Perl runs too): real processes, the injected clock, and a Prolog the
 * test holds to open the windows between a launch and the job's process deterministically.
 */
class TestBatchLauncherWithoutPerl {
    private static final int JOB = 4343;
    private static final int USER = 1001; // sluiceuser1, made by .ci/run
    private static final Instant START = Instant.parse("2021-03-04T05:06:07Z");

    @TempDir
    Path dir;

    private final AtomicReference<LaunchPolicy> policy = new AtomicReference<>(LaunchPolicy.NONE);
    private Outbox outbox;
    private BatchLauncher launcher;
    private Path work;
    private JobSpool spool;

    @BeforeEach
    void start() throws Exception {
        spool = new JobSpool(dir.resolve("spool"));
        outbox = new Outbox(spool);
        work = Files.createDirectories(dir.resolve("work"));
        LaunchSetup setup = LaunchSetup.builder()
                .nodeName("n7")
                .spool(spool)
                .daemonUid(uid())
                .clock(() -> START)
                .policy(policy::get)
                .build();
        launcher = new BatchLauncher(setup, outbox, (job, signal) -> {}, Supervisor.install(spool.root(), false));
    }

    @AfterEach
    void stop() {
        for (int id : launcher.runningJobIds()) {
            launcher.terminate(id, JobState.CANCELLED, -1);
        }
        launcher.close();
    }

    private static int uid() {
        return (int) new com.sun.security.auth.module.UnixSystem().getUid();
    }

    private LaunchBatchJobRequest request(String script) {
        var unix = new com.sun.security.auth.module.UnixSystem();
        return request(script, (int) unix.getUid(), (int) unix.getGid(), System.getProperty("user.name"));
    }

    private LaunchBatchJobRequest request(String script, int uid, int gid, String user) {
        return LaunchBatchJobRequest.newBuilder()
                .setJobId(JOB)
                .setClusterName("c1")
                .setNodeList("n7")
                .setNumNodes(1)
                .setCpusOnNode(1)
                .setPartition("debug")
                .setStartTime(START.getEpochSecond())
                .setKillWaitSeconds(1)
                .setSpec(JobSpec.newBuilder()
                        .setName("wrap")
                        .setScript(ByteString.copyFromUtf8("#!/bin/sh\n" + script + "\n"))
                        .setWorkDir(work.toString())
                        .setStdOut(work.resolve("out-%j.txt").toString())
                        .setStdErr(work.resolve("err-%j.txt").toString())
                        .putEnvironment("PATH", ByteString.copyFromUtf8("/usr/bin:/bin"))
                        .setOwner(Identity.newBuilder().setUid(uid).setGid(gid).setUserName(user)))
                .build();
    }

    private JobCompleteRequest awaitReport() {
        AtomicReference<JobCompleteRequest> report = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            outbox.reports().stream()
                    .filter(r -> r.getJobId() == JOB)
                    .findFirst()
                    .ifPresent(report::set);
            return report.get() != null;
        });
        return report.get();
    }

    private String file(String name) throws Exception {
        return Files.readString(work.resolve(name), StandardCharsets.UTF_8);
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
        launcher.launch(request("echo \"$SLURM_JOB_ID $SLURMD_NODENAME $(pwd)\"\necho to-err >&2\nexit 3"));

        JobCompleteRequest report = awaitReport();
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
        launcher.launch(request(
                "id -u\ntouch " + jobDir.resolve("planted") + " 2>/dev/null || echo denied\nexit 0",
                USER,
                USER,
                "sluiceuser1"));

        JobCompleteRequest report = awaitReport();
        assertThat(report.getExitStatus()).isZero();
        assertThat(file("out-" + JOB + ".txt")).isEqualTo(USER + "\ndenied\n");
        assertThat(Files.getOwner(work.resolve("out-" + JOB + ".txt"))).isEqualTo(user);
        assertThat(jobDir.resolve("planted")).doesNotExist();
    }

    @Test
    void aCancelDuringThePrologEndsTheJobByTermBeforeItRunsWithSlurmsLineOnce() throws Exception {
        holdInProlog();
        launcher.launch(request("touch ran\nexit 0"));

        // No pid yet: the job's own process delivers the end once it leads its session.
        launcher.terminate(JOB, JobState.CANCELLED, 0);
        assertThat(spool.fact(JOB, Supervisor.JOB_PID)).isEmpty();
        Files.createFile(work.resolve("release"));

        JobCompleteRequest report = awaitReport();
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
        launcher.launch(request("echo ran\nexit 138"));

        assertThat(launcher.signal(JOB, 10, false)).as("the job is here").isTrue();
        Files.createFile(work.resolve("release"));

        JobCompleteRequest report = awaitReport();
        assertThat(report.getExitStatus()).as("exit 138, ExitCode 138:0").isEqualTo(138 << 8);
        assertThat(report.getEndState()).isEqualTo(JobState.JOB_STATE_UNSPECIFIED);
        assertThat(file("out-" + JOB + ".txt")).isEqualTo("ran\n");
    }

    @Test
    void aSignalOnceTheJobRunsIsReportedAsThatSignalAndACancelAsCancelled() throws Exception {
        launcher.launch(request("touch started\nsleep 30"));
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(work.resolve("started")));

        assertThat(launcher.signal(JOB, 10, false)).isTrue();
        assertThat(awaitReport().getExitStatus()).isEqualTo(10);

        outbox.delivered(JOB);
        Files.delete(work.resolve("started"));
        launcher.launch(request("touch started\nsleep 30").toBuilder()
                .setRestartCount(1)
                .build());
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(work.resolve("started")));
        launcher.terminate(JOB, JobState.CANCELLED, 1);

        JobCompleteRequest report = awaitReport();
        assertThat(report.getEndState()).isEqualTo(JobState.CANCELLED);
        assertThat(report.getExitStatus()).isEqualTo(15);
        assertThat(file("err-" + JOB + ".txt")).contains("*** JOB " + JOB + " ON n7 CANCELLED AT ");
    }
}
