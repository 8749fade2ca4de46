package dev.sluice.noded.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.GresGrant;
import dev.sluice.noded.job.StepLaunch;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.LaunchStepRequest;
import dev.sluice.protocol.v1.PtySize;
import dev.sluice.protocol.v1.StdinMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The controller's step launch becomes the node's StepLaunch, every field read once. */
class TestStepLaunchMapper {
    @Test
    void everyFieldTheNodeReadsIsMappedToItsValue() {
        LaunchStepRequest r = LaunchStepRequest.newBuilder()
                .setJobId(41)
                .setStepId(3)
                .setOwner(Identity.newBuilder().setUid(1000).setGid(100).setUserName("alice"))
                .addAllArgv(List.of("hostname", "-s"))
                .putEnvironment("PATH", "/usr/bin")
                .putEnvironment("SLURM_JOB_ID", "41")
                .setWorkDir("/home/alice")
                .addAllTaskIds(List.of(4, 5))
                .setNodeId(1)
                .setNumNodes(2)
                .setNumTasks(6)
                .setNodeList("n[6-7]")
                .setTasksPerNode("4,2")
                .setCpusOnNode(2)
                .addAllCores(List.of(0, 1))
                .setMemPerNodeMb(1024)
                .addGres(dev.sluice.protocol.v1.GresGrant.newBuilder()
                        .setName("gpu")
                        .setType("a100")
                        .addIndices(1)
                        .setCount(1))
                .putMpsPerGpu(1, 100L)
                .setGpusPerTask(1)
                .setIoHost("login1")
                .setIoPort(40000)
                .setStdinMode(StdinMode.STDIN_TASK)
                .setStdinTask(5)
                .setPty(PtySize.newBuilder().setRows(24).setCols(80))
                .setCredential("token")
                .build();

        assertThat(StepLaunchMapper.toStep(r))
                .isEqualTo(new StepLaunch(
                        41,
                        3,
                        new BatchJob.Owner(1000, 100, "alice"),
                        List.of("hostname", "-s"),
                        Map.of("PATH", "/usr/bin", "SLURM_JOB_ID", "41"),
                        Optional.of("/home/alice"),
                        new StepLaunch.Tasks(List.of(4, 5), 1, 2, 6, "n[6-7]", "4,2"),
                        new StepLaunch.OnNode(
                                2,
                                List.of(0, 1),
                                1024,
                                List.of(new GresGrant("gpu", "a100", List.of(1), 1)),
                                Map.of(1, 100L),
                                1),
                        new StepLaunch.Srun(
                                "login1",
                                40000,
                                new StepLaunch.Stdin(StepLaunch.Stdin.Mode.TASK, 5),
                                Optional.of(new StepLaunch.Pty(24, 80))),
                        "token"));
    }

    @Test
    void absentFieldsAreEmpty() {
        StepLaunch step = StepLaunchMapper.toStep(
                LaunchStepRequest.newBuilder().setJobId(2).build());

        assertThat(step.workDir()).isEmpty();
        assertThat(step.runDir()).isEqualTo("/tmp");
        assertThat(step.srun().pty()).as("no --pty").isEmpty();
        assertThat(step.srun().stdin())
                .as("an older srun's: every task reads /dev/null")
                .isEqualTo(StepLaunch.Stdin.NONE);
        assertThat(step.srun().stdin().reads(0)).isFalse();
        assertThat(step.onNode().gres()).isEmpty();
        assertThat(step.credential()).isEmpty();
    }

    @Test
    void srunsInputGoesToEveryTaskOrToOne() {
        StepLaunch all = StepLaunchMapper.toStep(LaunchStepRequest.newBuilder()
                .setStdinMode(StdinMode.STDIN_ALL)
                .setStdinTask(3)
                .build());
        assertThat(all.srun().stdin().reads(0)).isTrue();
        assertThat(all.srun().stdin().reads(7)).isTrue();
        StepLaunch one = StepLaunchMapper.toStep(LaunchStepRequest.newBuilder()
                .setStdinMode(StdinMode.STDIN_TASK)
                .setStdinTask(3)
                .build());
        assertThat(one.srun().stdin().reads(3)).isTrue();
        assertThat(one.srun().stdin().reads(0)).isFalse();
    }
}
