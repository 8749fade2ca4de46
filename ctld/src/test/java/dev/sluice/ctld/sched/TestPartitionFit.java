package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A job over its partition's limits on an idle 2 x 4-CPU partition: accepted and pending with
 * Slurm 22.05's reasons under EnforcePartLimits=NO (its default), refused with it enforced.
 */
class TestPartitionFit {
    private static final long NOW = 1_000_000;
    private static final Scheduler.SelectDefaults NO = Scheduler.SelectDefaults.DEFAULT;
    private static final Scheduler.SelectDefaults ALL =
            Scheduler.SelectDefaults.builder().enforcePartLimits(true).build();

    private ClusterState state;
    private ControlHarness harness;

    @BeforeEach
    void cluster() {
        state = Builders.anIdleCluster(List.of("n1", "n2"), 4, 1000, NOW);
        harness = new ControlHarness(state.sequence());
    }

    private JobReason submittedAndScheduled(JobRequest request) {
        var result = JobControl.builder(NO).build().submit(state, request, NOW);
        harness.replayRecords(state, result);
        SchedulePlan plan =
                new Scheduler(SchedulerConfig.builder(NO).reservationDepth(1).build()).schedule(state.image(), NOW);
        assertThat(plan.starts()).isEmpty();
        return plan.pendingReasons().get(result.response());
    }

    @Test
    void moreNodesThanThePartitionHasPendsWithPartitionNodeLimit() {
        assertThat(submittedAndScheduled(aJob().nodes(3).build())).isEqualTo(JobReason.PARTITION_NODE_LIMIT);
    }

    @Test
    void moreCpusThanThePartitionHasPendsWithPartitionConfig() {
        assertThat(submittedAndScheduled(aJob().tasks(99).build())).isEqualTo(JobReason.PARTITION_CONFIG);
        assertThat(submittedAndScheduled(aJob().nodes(2).tasks(9).build())).isEqualTo(JobReason.PARTITION_CONFIG);
    }

    @Test
    void enforcedLimitsRefuseAtSubmission() {
        JobControl enforcing = JobControl.builder(ALL).build();
        assertThatThrownBy(() -> enforcing.submit(state, aJob().nodes(3).build(), NOW))
                .isInstanceOfSatisfying(
                        SlurmException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_NODE_COUNT));
        assertThatThrownBy(() -> enforcing.submit(state, aJob().tasks(99).build(), NOW))
                .isInstanceOfSatisfying(
                        SlurmException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TOO_MANY_REQUESTED_CPUS));
    }

    @Test
    void aJobWithinTheLimitsThatNoNodeCouldRunIsStillRefused() {
        // 5 CPUs on one node of 4: within the partition's 8 CPUs, but -N1 cannot hold it.
        assertThatThrownBy(() -> JobControl.builder(NO)
                        .build()
                        .submit(state, aJob().nodes(1).tasks(5).build(), NOW))
                .isInstanceOfSatisfying(
                        SlurmException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    }
}
