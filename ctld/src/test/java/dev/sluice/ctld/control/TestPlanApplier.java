package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A scheduling pass's plan as the loop journals it. */
class TestPlanApplier {
    private static PlanFixture cluster() {
        return new PlanFixture()
                .submit(1, Builders.aJob().array("1-3").build())
                .submit(2, Builders.aJob().build());
    }

    @Test
    void aStartOnAGangsRunningCoresIsJournaledSuspendedAndOnlyLaunched() {
        // Its launch stops it on the node (NodeDispatcher): a Suspend sent beside the launch
        // could reach the node first.
        PlanFixture cluster = cluster();
        ClusterState state = cluster.state;
        SchedulePlan plan = PlanFixture.starting(List.of(PlanFixture.start(2, -1, true)), List.of());
        ControlResult<Void> result = PlanApplier.apply(state, plan, 110);
        assertThat(result.records())
                .containsExactly(
                        new StateRecord.JobStarted(2, PlanFixture.ON_N1, "p", 60, 110),
                        new StateRecord.JobSuspendChanged(2, true, 0, 110, true));
        assertThat(result.effects()).containsExactly(new Effect.LaunchBatch(2));
        cluster.replayRecords(result);
        assertThat(state.job(2).status().state()).isEqualTo(JobState.SUSPENDED);
        assertThat(state.job(2).suspension().byPreemption()).isTrue();
    }

    @Test
    void arrayTasksSplitOffInOrderAndTheLastKeepsTheRecord() {
        PlanFixture cluster = cluster();
        ClusterState state = cluster.state;
        SchedulePlan plan = PlanFixture.starting(
                List.of(PlanFixture.start(1, 1, false), PlanFixture.start(1, 2, false), PlanFixture.start(1, 3, false)),
                List.of(2));
        ControlResult<Void> result = PlanApplier.apply(state, plan, 110);
        assertThat(result.records())
                .containsExactly(
                        new StateRecord.ArrayTaskSplit(1, 1, 3, 110),
                        new StateRecord.JobStarted(3, PlanFixture.ON_N1, "p", 60, 110),
                        new StateRecord.ArrayTaskSplit(1, 2, 4, 110),
                        new StateRecord.JobStarted(4, PlanFixture.ON_N1, "p", 60, 110),
                        new StateRecord.ArrayTaskSplit(1, 3, 1, 110),
                        new StateRecord.JobStarted(1, PlanFixture.ON_N1, "p", 60, 110),
                        StateRecord.JobEnded.unrequested(
                                2, JobState.CANCELLED, 0, JobReason.DEPENDENCY_NEVER_SATISFIED, 110));
        assertThat(result.effects())
                .containsExactly(new Effect.LaunchBatch(3), new Effect.LaunchBatch(4), new Effect.LaunchBatch(1));
        cluster.replayRecords(result);
        assertThat(state.job(1).displayId()).isEqualTo("1_3");
        assertThat(state.job(3).displayId()).isEqualTo("1_1");
        assertThat(state.nextJobId()).isEqualTo(5);
    }

    @Test
    void theQueueViewIsSoftState() {
        PlanFixture cluster = cluster();
        ClusterState state = cluster.state;
        SchedulePlan plan = new SchedulePlan(
                List.of(),
                List.of(),
                List.of(),
                Map.of(2, JobReason.RESOURCES),
                Map.of(2, 500L),
                Map.of(2, 7L),
                Map.of(),
                Map.of(),
                List.of(),
                List.of());
        ControlResult<Void> result = PlanApplier.apply(state, plan, 110);
        assertThat(result.records()).isEmpty();
        cluster.apply(result);
        assertThat(state.image().reasonOf(state.job(2))).isEqualTo("Resources");
    }
}
