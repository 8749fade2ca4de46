package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The node count squeue's %D and scontrol's NumNodes show for a job that waits, on an idle
 * 2 x 4-CPU partition as the differential suite's cluster (Slurm 22.05: -n9 shows 3 nodes, -n8
 * pending behind a running job shows 2).
 */
class TestPendingNodeCount {
    private static final long NOW = 1_000_000;
    private ClusterState state;
    private ControlHarness harness;

    @BeforeEach
    void cluster() {
        state = Builders.anIdleCluster(List.of("n1", "n2"), 4, 1000, NOW);
        harness = new ControlHarness(state.sequence());
    }

    private int shownNodes(JobRequest request) {
        var result =
                JobControl.builder(Scheduler.SelectDefaults.DEFAULT).build().submit(state, request, NOW);
        harness.replayRecords(state, result);
        var image = state.image();
        var job = image.job(result.response()).orElseThrow();
        return InfoMapper.job(image, job, false, InfoMapper.Shown.of(image, false, java.util.Set.of()), NOW)
                .getNumNodes();
    }

    @Test
    void cpusOverOneNodeShowAsTheNodesTheyNeed() {
        assertThat(shownNodes(aJob().tasks(9).build())).isEqualTo(3);
        assertThat(shownNodes(aJob().tasks(8).build())).isEqualTo(2);
        assertThat(shownNodes(aJob().tasks(2).cpusPerTask(3).build())).isEqualTo(2);
    }

    @Test
    void whatTheJobAskedForIsKept() {
        assertThat(shownNodes(aJob().tasks(1).build())).isEqualTo(1);
        assertThat(shownNodes(aJob().nodes(3).build())).isEqualTo(3);
        assertThat(shownNodes(aJob().nodes(1, 2).tasks(12).build())).isEqualTo(2);
    }
}
