package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which refused submissions use up a job id, as Slurm 22.05's do (compat 036, 094): those refused
 * once the job record exists (its dependency, its fit on the nodes), not those refused before.
 */
class TestSubmissionIds {
    private static final long NOW = 1_000_000;
    private final JobControl jobs =
            JobControl.builder(Scheduler.SelectDefaults.DEFAULT).build();
    private ClusterState state;
    private ControlHarness harness;

    @BeforeEach
    void cluster() {
        state = Builders.anIdleCluster(List.of("n1"), 4, 1000, NOW);
        harness = new ControlHarness(state.sequence());
    }

    /** The outcome, with its records and soft changes applied as the loop applies them. */
    private JobControl.Submission submit(JobRequest request) {
        var result = jobs.submission(state, request, NOW, false);
        return harness.apply(state, result);
    }

    @Test
    void aBadDependencyOrAnUnplaceableJobUsesUpItsId() {
        assertThat(submit(aJob().build()).jobId()).isEqualTo(1);
        JobControl.Submission badDependency =
                submit(aJob().dependency("afterok:abc", false).build());
        assertThat(badDependency.refusal().code()).isEqualTo(ErrorCode.DEPENDENCY);
        JobControl.Submission tooBig = submit(aJob().memPerNode(5000).build());
        assertThat(tooBig.refusal().code()).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        assertThat(submit(aJob().build()).jobId()).isEqualTo(4);
    }

    @Test
    void aJobRefusedForItsPartitionLeavesNoGap() {
        assertThat(submit(aJob().partition("nosuch").build()).refusal().code())
                .isEqualTo(ErrorCode.INVALID_PARTITION_NAME);
        assertThat(submit(aJob().build()).jobId()).isEqualTo(1);
    }
}
