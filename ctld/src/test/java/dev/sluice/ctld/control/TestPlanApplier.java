package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.loop.SoftState;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A scheduling pass's plan as the loop journals it. */
class TestPlanApplier {
    private static final Allocation ONE_CPU = new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1)));

    private static ClusterState state() {
        ClusterState state = ClusterFixture.aCluster().configured();
        state.replay(
                1, new StateRecord.JobSubmitted(1, Builders.aJob().array("1-3").build(), "p", 60, 100));
        state.replay(2, new StateRecord.JobSubmitted(2, Builders.aJob().build(), "p", 60, 100));
        return state;
    }

    private static SchedulePlan.Start task(int task) {
        return new SchedulePlan.Start(1, task, ONE_CPU, "p", 60, false);
    }

    @Test
    void aStartOnAGangsRunningCoresIsJournaledSuspendedAndOnlyLaunched() {
        // Its launch stops it on the node (NodeDispatcher): a Suspend sent beside the launch
        // could reach the node first.
        ClusterState state = state();
        SchedulePlan plan = new SchedulePlan(
                List.of(new SchedulePlan.Start(2, -1, ONE_CPU, "p", 60, true)),
                List.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                List.of(),
                List.of());
        ControlResult<Void> result = PlanApplier.apply(state, plan, 110);
        assertThat(result.records())
                .containsExactly(
                        new StateRecord.JobStarted(2, ONE_CPU, "p", 60, 110),
                        new StateRecord.JobSuspendChanged(2, true, 0, 110, true));
        assertThat(result.effects()).containsExactly(new Effect.LaunchBatch(2));
        long seq = 2;
        for (StateRecord r : result.records()) {
            state.replay(++seq, r);
        }
        assertThat(state.job(2).state()).isEqualTo(JobState.SUSPENDED);
        assertThat(state.job(2).preemptSuspended()).isTrue();
    }

    @Test
    void arrayTasksSplitOffInOrderAndTheLastKeepsTheRecord() {
        ClusterState state = state();
        SchedulePlan plan = new SchedulePlan(
                List.of(task(1), task(2), task(3)),
                List.of(2),
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                List.of(),
                List.of());
        ControlResult<Void> result = PlanApplier.apply(state, plan, 110);
        assertThat(result.records())
                .containsExactly(
                        new StateRecord.ArrayTaskSplit(1, 1, 3, 110),
                        new StateRecord.JobStarted(3, ONE_CPU, "p", 60, 110),
                        new StateRecord.ArrayTaskSplit(1, 2, 4, 110),
                        new StateRecord.JobStarted(4, ONE_CPU, "p", 60, 110),
                        new StateRecord.ArrayTaskSplit(1, 3, 1, 110),
                        new StateRecord.JobStarted(1, ONE_CPU, "p", 60, 110),
                        StateRecord.JobEnded.unrequested(
                                2, JobState.CANCELLED, 0, JobReason.DEPENDENCY_NEVER_SATISFIED, 110));
        assertThat(result.effects())
                .containsExactly(new Effect.LaunchBatch(3), new Effect.LaunchBatch(4), new Effect.LaunchBatch(1));
        long seq = 2;
        for (StateRecord r : result.records()) {
            state.replay(++seq, r);
        }
        assertThat(state.job(1).displayId()).isEqualTo("1_3");
        assertThat(state.job(3).displayId()).isEqualTo("1_1");
        assertThat(state.nextJobId()).isEqualTo(5);
    }

    @Test
    void theQueueViewIsSoftState() {
        ClusterState state = state();
        SchedulePlan plan = new SchedulePlan(
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
        result.softChanges().forEach(c -> SoftState.apply(state, c));
        assertThat(state.image().reasonOf(state.job(2))).isEqualTo("Resources");
    }
}
