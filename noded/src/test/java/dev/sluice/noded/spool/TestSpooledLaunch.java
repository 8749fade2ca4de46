package dev.sluice.noded.spool;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.BatchJobBuilder;
import dev.sluice.noded.wire.BatchJobMapper;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's launch in the spool, across a restart of the node daemon and an upgrade of it. */
class TestSpooledLaunch {
    @TempDir
    Path dir;

    @Test
    void aLaunchSpooledByAnOlderDaemonIsReadBackAsTheJob() throws Exception {
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        // As every daemon before the typed job wrote it: the controller's message, whole.
        LaunchBatchJobRequest older = LaunchBatchJobRequest.newBuilder()
                .setJobId(12)
                .setRestartCount(1)
                .setTimeLimitMinutes(10)
                .setKillWaitSeconds(30)
                .setCredential("token")
                .setSpec(JobSpec.newBuilder()
                        .setScript(ByteString.copyFromUtf8("#!/bin/sh\nsleep 60\n"))
                        .setWorkDir("/home/alice")
                        .setDependency("afterok:11")
                        .setOwner(Identity.newBuilder().setUid(1000).setGid(100).setUserName("alice")))
                .build();
        Files.createDirectories(spool.jobDir(12));
        Files.write(spool.jobDir(12).resolve("launch.pb"), older.toByteArray());

        BatchJob job = spool.launch(12).orElseThrow();

        assertThat(job).isEqualTo(BatchJobMapper.toJob(older));
        assertThat(job.restartCount()).isEqualTo(1);
        assertThat(job.times().timeLimit()).contains(Duration.ofMinutes(10));
        assertThat(job.io().runDir()).isEqualTo("/home/alice");
    }

    @Test
    void aLaunchKeptAsTheControllerSignedItIsReadBackAsTheJob() throws Exception {
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        LaunchBatchJobRequest sent = LaunchBatchJobRequest.newBuilder()
                .setJobId(7)
                .setTimeLimitMinutes(5)
                .setCredential("token")
                .setSpec(JobSpec.newBuilder()
                        .setScript(ByteString.copyFromUtf8("#!/bin/sh\ntrue\n"))
                        .putEnvironment("B", ByteString.copyFromUtf8("2"))
                        .putEnvironment("A", ByteString.copyFromUtf8("1"))
                        .setOwner(Identity.newBuilder().setUid(1000).setGid(100).setUserName("alice")))
                .build();

        spool.saveLaunch(7, sent.toByteArray());

        assertThat(spool.launch(7)).contains(BatchJobMapper.toJob(sent));
        assertThat(spool.launch(7).orElseThrow().submission().environment()).hasSize(2);
    }

    @Test
    void aJobSavedIsReadBackUnchangedInTheSameMessage() throws Exception {
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        BatchJob job = BatchJobBuilder.job(5)
                .restartCount(2)
                .script("#!/bin/sh\ntrue\n")
                .owner(1000, 100, "alice")
                .workDir("/home/alice")
                .timeLimit(Duration.ofMinutes(3))
                .credential("token")
                .build();

        spool.saveLaunch(job.jobId(), JobSpool.launchRecord(job));

        assertThat(spool.launch(5)).contains(job);
        LaunchBatchJobRequest onDisk = LaunchBatchJobRequest.parseFrom(
                Files.readAllBytes(spool.jobDir(5).resolve("launch.pb")));
        assertThat(onDisk.getJobId()).isEqualTo(5);
        assertThat(onDisk.getSpec().getOwner().getUserName()).isEqualTo("alice");
        assertThat(onDisk.getCredential()).isEqualTo("token");
        assertThat(spool.launch(6)).isEmpty();
    }
}
