package dev.sluice.noded.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.BatchJobBuilder;
import dev.sluice.noded.job.GresGrant;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The controller's launch becomes the node's batch job, and the spool's copy maps back to the same job. */
class TestBatchJobMapper {
    /** A launch with every field the node reads set to a value of its own. */
    private static final LaunchBatchJobRequest FULL = LaunchBatchJobRequest.newBuilder()
            .setJobId(41)
            .setRestartCount(2)
            .setClusterName("lab")
            .setNodeList("n[1-2]")
            .setNumNodes(2)
            .setNumTasks(6)
            .setJobCpusPerNode("3(x2)")
            .setTasksPerNode("3(x2)")
            .setCpusOnNode(3)
            .addAllCores(List.of(4, 5, 6))
            .setMemPerNodeMb(2048)
            .addGres(dev.sluice.protocol.v1.GresGrant.newBuilder()
                    .setName("gpu")
                    .setType("a100")
                    .addAllIndices(List.of(1, 3))
                    .setCount(2))
            .addGres(dev.sluice.protocol.v1.GresGrant.newBuilder()
                    .setName("mps")
                    .addIndices(0)
                    .setCount(50))
            .putMpsPerGpu(0, 100L)
            .setPartition("gpu")
            .setStartTime(1_800_000_000L)
            .setTimeLimitMinutes(90)
            .setKillWaitSeconds(30)
            .setControllerHost("ctl")
            .setControllerPort(6817)
            .setArrayJobId(40)
            .setArrayTaskId(1)
            .setArrayTaskCount(4)
            .setArrayTaskMin(0)
            .setArrayTaskMax(6)
            .setArrayTaskStep(2)
            .setCredential("signed-token")
            .setSpec(JobSpec.newBuilder()
                    .setName("train")
                    .setOwner(Identity.newBuilder().setUid(1000).setGid(100).setUserName("alice"))
                    // A Latin-1 byte in the script and one in a value: both reach the job unchanged.
                    .setScript(ByteString.copyFrom(
                            new byte[] {'#', '!', '/', 'b', 'i', 'n', '/', 's', 'h', '\n', (byte) 0xe9}))
                    .addAllScriptArgs(List.of("a", "b c"))
                    .setSubmitHost("login1")
                    .putEnvironment("PATH", ByteString.copyFromUtf8("/usr/bin"))
                    .putEnvironment("LATIN", ByteString.copyFrom(new byte[] {'x', (byte) 0xe9}))
                    .setWorkDir("/home/alice")
                    .setStdIn("in.txt")
                    .setStdOut("out-%j.txt")
                    .setStdErr("err-%j.txt")
                    .setOpenMode("append")
                    .setNumTasks(6)
                    .setCpusPerTask(1)
                    .setMemPerCpuMb(512)
                    .setGpus("a100:2")
                    .setGpusPerNode("1")
                    .setGpusPerTask("1")
                    .setAccount("physics")
                    .setQos("high")
                    .setConstraint("a100&ib"))
            .build();

    @Test
    void everyFieldTheNodeReadsIsMappedToItsValue() {
        BatchJob job = BatchJobMapper.toJob(FULL);

        assertThat(job.identity())
                .isEqualTo(
                        new BatchJob.Identity(41, 2, "train", Optional.of(new BatchJob.ArrayTask(40, 1, 4, 0, 6, 2))));
        assertThat(job.owner()).isEqualTo(new BatchJob.Owner(1000, 100, "alice"));
        assertThat(job.submission().script())
                .isEqualTo(new BatchJob.Script(FULL.getSpec().getScript().toByteArray(), List.of("a", "b c")));
        assertThat(job.submission().environment())
                .containsExactly(Map.entry("PATH", "/usr/bin"), Map.entry("LATIN", "x\uDCE9"));
        assertThat(job.submission().submitHost()).isEqualTo("login1");
        assertThat(job.io())
                .isEqualTo(new BatchJob.Io(
                        Optional.of("/home/alice"),
                        Optional.of("in.txt"),
                        Optional.of("out-%j.txt"),
                        Optional.of("err-%j.txt"),
                        OpenMode.APPEND));
        assertThat(job.io().append()).isTrue();
        assertThat(job.layout()).isEqualTo(new BatchJob.Layout("lab", "n[1-2]", 2, 6, "3(x2)", "3(x2)"));
        assertThat(job.onNode())
                .isEqualTo(new BatchJob.OnNode(
                        3,
                        1,
                        List.of(4, 5, 6),
                        new BatchJob.Memory(2048, 512),
                        List.of(
                                new GresGrant("gpu", "a100", List.of(1, 3), 2),
                                new GresGrant("mps", "", List.of(0), 50)),
                        Map.of(0, 100L)));
        assertThat(job.onNode().gpus()).containsExactly(0, 1, 3);
        assertThat(job.gpuRequest())
                .isEqualTo(new BatchJob.GpuRequest(Optional.of("a100:2"), Optional.of("1"), Optional.of("1")));
        assertThat(job.charge()).isEqualTo(new BatchJob.Charge("gpu", "physics", "high", "a100&ib"));
        assertThat(job.times())
                .isEqualTo(new BatchJob.Times(
                        Instant.ofEpochSecond(1_800_000_000L),
                        Optional.of(Duration.ofMinutes(90)),
                        Duration.ofSeconds(30)));
        assertThat(job.controller()).isEqualTo(new BatchJob.Controller("ctl", 6817));
        assertThat(job.credential()).isEqualTo("signed-token");
    }

    @Test
    void theSpoolsCopyMapsBackToTheSameJob() {
        BatchJob job = BatchJobMapper.toJob(FULL);
        LaunchBatchJobRequest spooled = BatchJobMapper.toWire(job);

        assertThat(BatchJobMapper.toJob(spooled)).isEqualTo(job);
        // The bytes of the script and of the environment survive, not only their decoded text.
        assertThat(spooled.getSpec().getScript()).isEqualTo(FULL.getSpec().getScript());
        assertThat(spooled.getSpec().getEnvironmentMap())
                .isEqualTo(FULL.getSpec().getEnvironmentMap());
        assertThat(spooled.getCredential()).isEqualTo(FULL.getCredential());
    }

    @Test
    void aJobBuiltOnTheNodeSideSurvivesTheSpool() {
        BatchJob job = BatchJobBuilder.job(7)
                .name("wrap")
                .script("#!/bin/sh\necho hi\n")
                .owner(1000, 100, "alice")
                .workDir("/tmp/w")
                .env("A", "1")
                .cpus(2)
                .gres(new GresGrant("shard", "", List.of(2), 3))
                .timeLimit(Duration.ofMinutes(5))
                .killWait(Duration.ofSeconds(9))
                .start(Instant.ofEpochSecond(1_700_000_000L))
                .build();

        assertThat(BatchJobMapper.toJob(BatchJobMapper.toWire(job))).isEqualTo(job);
    }

    @Test
    void absentFieldsAreEmptyNotBlank() {
        BatchJob job = BatchJobMapper.toJob(LaunchBatchJobRequest.newBuilder()
                .setJobId(3)
                .setSpec(JobSpec.newBuilder().setNumTasks(0))
                .build());

        assertThat(job.identity().array()).as("array_job_id 0: a plain job").isEmpty();
        assertThat(job.io().workDir()).isEmpty();
        assertThat(job.io().runDir()).isEqualTo("/tmp");
        assertThat(job.io().stdIn()).isEmpty();
        assertThat(job.io().stdOut()).isEmpty();
        assertThat(job.io().stdErr()).isEmpty();
        assertThat(job.io().openMode()).isEqualTo(OpenMode.NOT_GIVEN);
        assertThat(job.io().append()).isFalse();
        assertThat(job.gpuRequest()).isEqualTo(BatchJob.GpuRequest.NONE);
        assertThat(job.times().timeLimit()).isEmpty();
        assertThat(job.onNode().gres()).isEmpty();
        assertThat(job.onNode().cores()).isEmpty();
        assertThat(job.credential()).isEmpty();
        assertThat(BatchJobMapper.toJob(BatchJobMapper.toWire(job))).isEqualTo(job);
    }

    @Test
    void aTaskCountIsKeptOnlyWhenTheJobAskedForOne() {
        LaunchBatchJobRequest.Builder launch =
                LaunchBatchJobRequest.newBuilder().setNumTasks(4);

        assertThat(BatchJobMapper.toJob(launch.build()).layout().numTasks()).isZero();
        assertThat(BatchJobMapper.toJob(launch.setSpec(JobSpec.newBuilder().setNtasksPerNode(2))
                                .build())
                        .layout()
                        .numTasks())
                .isEqualTo(4);
    }

    @Test
    void noLimitAndUnlimitedAreBothNoTimeLimit() {
        for (long minutes : List.of(0L, SlurmLimits.INFINITE, SlurmLimits.NO_VAL)) {
            LaunchBatchJobRequest r = LaunchBatchJobRequest.newBuilder()
                    .setTimeLimitMinutes((int) minutes)
                    .build();
            assertThat(BatchJobMapper.toJob(r).times().timeLimit())
                    .as("%d", minutes)
                    .isEmpty();
        }
    }

    @Test
    void onlyTheWordAppendAppends() {
        for (var mode : Map.of("APPEND", OpenMode.APPEND, "truncate", OpenMode.TRUNCATE, "a", OpenMode.NOT_GIVEN)
                .entrySet()) {
            LaunchBatchJobRequest r = LaunchBatchJobRequest.newBuilder()
                    .setSpec(JobSpec.newBuilder().setOpenMode(mode.getKey()))
                    .build();
            assertThat(BatchJobMapper.toJob(r).io().openMode())
                    .as(mode.getKey())
                    .isEqualTo(mode.getValue());
        }
    }
}
