package dev.sluice.ctld.control;

import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;

/**
 * The plan applier's tests' cluster, as slurm.conf builds it (partition p), its jobs submitted
 * at 100 for 60 minutes, and what the loop journals replayed into it in order.
 */
final class PlanFixture {
    /** One CPU of n1. */
    static final Allocation ON_N1 = new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1)));

    final ClusterState state;
    private final ControlHarness journal = new ControlHarness();

    /** One node, n1. */
    PlanFixture() {
        this(1);
    }

    /** Nodes n1..n{@code nodes}. */
    PlanFixture(int nodes) {
        state = ClusterFixture.aCluster().nodes(nodes).configured();
    }

    PlanFixture submit(int id, JobRequest request) {
        replay(new StateRecord.JobSubmitted(id, request, "p", 60, 100));
        return this;
    }

    void replay(StateRecord record) {
        journal.replay(state, record);
    }

    /** What the loop does with an accepted decision: its records replayed, its soft changes applied. */
    <T> T apply(ControlResult<T> result) {
        return journal.apply(state, result);
    }

    /** Only a decision's records, for tests that look at its soft changes themselves. */
    void replayRecords(ControlResult<?> result) {
        journal.replayRecords(state, result);
    }

    /** Task {@code task} of job {@code job} (-1: not an array task) starting on {@link #ON_N1}. */
    static SchedulePlan.Start start(int job, int task, boolean suspended) {
        return new SchedulePlan.Start(job, task, ON_N1, "p", 60, suspended);
    }

    /** A pass that starts {@code starts} and cancels {@code cancels}, and decides nothing else. */
    static SchedulePlan starting(List<SchedulePlan.Start> starts, List<Integer> cancels) {
        return new SchedulePlan(
                starts, cancels, List.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), List.of(), List.of());
    }
}
