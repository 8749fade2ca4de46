package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PrologFlags=Alloc: a job started while a Prolog runs at allocation shows reason Prolog until each
 * of its nodes reports it done (compat 246, 247, 262); a failed one drains its node and gives the
 * job back to the queue, held (compat 263); signals are not held meanwhile.
 */
class TestAllocationProlog {
    private static final Caller ROOT = Caller.of(0, 0, "root");
    private static final int SIGUSR1 = 10;

    private final PlanFixture cluster =
            new PlanFixture(2).submit(2, Builders.aJob().build());

    private static final Allocation ON_N1_N2 =
            new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1), Allocation.NodeShare.of("n2", 1, 0, 1)));

    private ClusterState startedJob(boolean prologWaited) {
        return startedJob(prologWaited, PlanFixture.ON_N1);
    }

    private ClusterState startedJob(boolean prologWaited, Allocation allocation) {
        SchedulePlan plan =
                PlanFixture.starting(List.of(new SchedulePlan.Start(2, -1, allocation, "p", 60, false)), List.of());
        cluster.apply(PlanApplier.apply(cluster.state, plan, 110, prologWaited));
        return cluster.state;
    }

    @Test
    void aJobStartedWhileThePrologIsWaitedForShowsReasonPrologUntilItsBatchHostReportsItDone() {
        ClusterState state = startedJob(true);
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.PROLOG);

        // A node not in the allocation, or an earlier run's report, changes nothing.
        cluster.apply(AllocationProlog.prologDone(state, "n2", 2, 0, 112));
        cluster.apply(AllocationProlog.prologDone(state, "n1", 2, 1, 112));
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.PROLOG);

        cluster.apply(AllocationProlog.prologDone(state, "n1", 2, 0, 112));
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.NONE);
        assertThat(state.waitsForProlog(state.job(2))).isFalse();
    }

    @Test
    void withoutAWaitedPrologTheJobRunsWithNoReasonAndAReportChangesNothing() {
        ClusterState state = startedJob(false);
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.NONE);
        ControlResult<Void> report = AllocationProlog.prologDone(state, "n1", 2, 0, 112);
        assertThat(report.records()).isEmpty();
        assertThat(report.softChanges()).isEmpty();
        assertThat(report.effects()).isEmpty();
    }

    @Test
    void aSignalDuringThePrologGoesToTheNodeAtOnceAsSlurmctldSendsIt() {
        // slurmctld 22.05 passes it on and slurmd, with no process of the job yet, drops it
        // (compat 246): nothing is kept for later.
        ClusterState state = startedJob(true);
        ControlResult<Void> signalled = JobControl.builder(Scheduler.SelectDefaults.DEFAULT)
                .build()
                .signal(state, ROOT, "2", SIGUSR1, false, JobControl.SignalScope.BATCH, 111);
        assertThat(signalled.effects()).containsExactly(new Effect.Signal(2, List.of("n1"), SIGUSR1, true, false));
        assertThat(signalled.softChanges()).isEmpty();
    }

    @Test
    void aRequeuedJobsNextRunStartsWithoutTheEarlierRunsWait() {
        ClusterState state = startedJob(true);
        cluster.replay(StateRecord.JobRequeued.heldBack(2, false, 120, 120));
        assertThat(state.job(2).isPending()).isTrue();
        assertThat(state.image().reason(state.job(2))).isNotEqualTo(JobReason.PROLOG);
    }

    @Test
    void aJobOnTwoNodesWaitsUntilEachOfThemReportsItsPrologDone() {
        ClusterState state = startedJob(true, ON_N1_N2);
        assertThat(state.prologRunsOn(state.job(2))).containsExactlyInAnyOrder("n1", "n2");

        cluster.apply(AllocationProlog.prologDone(state, "n1", 2, 0, 112));
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.PROLOG);
        assertThat(state.image().prologRunsOn(state.job(2))).containsExactly("n2");
        // A repeat of the batch host's report does not end the wait either, nor is it journaled.
        assertThat(AllocationProlog.prologDone(state, "n1", 2, 0, 112).records())
                .isEmpty();
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.PROLOG);

        cluster.apply(AllocationProlog.prologDone(state, "n2", 2, 0, 112));
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.NONE);
    }

    @Test
    void aFailedPrologDrainsItsNodeAndRequeuesTheJobHeldAndEndsItOnItsOtherNodes() {
        ClusterState state = startedJob(true, ON_N1_N2);
        ControlResult<Void> failed = AllocationProlog.prologFailed(state, "n2", 2, 0, "slurm", 115);

        assertThat(failed.records())
                .contains(new StateRecord.NodeStateChanged(
                        "n2", dev.sluice.ctld.state.NodeTransition.DRAIN, "Prolog error", "slurm", 115));
        assertThat(failed.effects()).anyMatch(e -> e instanceof Effect.Terminate t && t.jobId() == 2);
        cluster.apply(failed);
        assertThat(state.job(2).isPending()).isTrue();
        assertThat(state.job(2).terms().hold()).isEqualTo(dev.sluice.ctld.state.Job.Hold.ADMIN);
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.LAUNCH_FAILED_REQUEUED_HELD);
        assertThat(state.waitsForProlog(state.job(2))).isFalse();
        // A batch job goes back to the queue: no allocation was revoked.
        assertThat(state.image().prologFailedOn(state.job(2))).isEmpty();

        // A late or repeated failure of that run changes nothing more.
        ControlResult<Void> again = AllocationProlog.prologFailed(state, "n1", 2, 0, "slurm", 116);
        assertThat(again.records()).isEmpty();
    }

    @Test
    void aFailedPrologCancelsAnAllocationAndNamesTheNodeForSalloc() {
        // salloc's allocation cannot be requeued: it is cancelled, and salloc says "Prolog
        // failure on node n2" (compat 264).
        PlanFixture alloc =
                new PlanFixture(2).submit(2, Builders.aJob().script("").build());
        SchedulePlan plan =
                PlanFixture.starting(List.of(new SchedulePlan.Start(2, -1, ON_N1_N2, "p", 60, false)), List.of());
        alloc.apply(PlanApplier.apply(alloc.state, plan, 110, true));
        ClusterState state = alloc.state;
        assertThat(state.image().prologFailedOn(state.job(2))).isEmpty();

        ControlResult<Void> failed = AllocationProlog.prologFailed(state, "n2", 2, 0, "slurm", 115);
        // The node is part of the journaled end, not a soft fact a restart would forget.
        assertThat(failed.softChanges()).isEmpty();
        assertThat(failed.records())
                .anyMatch(r -> r instanceof StateRecord.JobEnded e
                        && e.prologFailedNode().equals("n2"));
        alloc.apply(failed);

        assertThat(state.job(2).status().state()).isEqualTo(dev.sluice.common.slurm.JobState.CANCELLED);
        assertThat(state.image().prologFailedOn(state.job(2))).contains("n2");
    }

    private ControlResult<java.util.Set<String>> batchEnd(ClusterState state, String node, long now) {
        return BatchEnds.reported(
                state, new BatchEnds.Report(node, 2, 0, 0, JobState.COMPLETED, BatchEnds.NodeScripts.OK), "slurm", now);
    }

    @Test
    void aBatchEndWaitsForTheOtherNodesPrologAndIsTakenOnceItIsDone() {
        // Slurm starts the script before n2's Prolog is done (compat 262); its end must not be
        // final before then, or a failing Prolog could no longer requeue the job (compat 263).
        ClusterState state = startedJob(true, ON_N1_N2);
        cluster.apply(AllocationProlog.prologDone(state, "n1", 2, 0, 111));

        ControlResult<java.util.Set<String>> early = batchEnd(state, "n1", 112);
        assertThat(early.response()).containsExactly("n2");
        assertThat(early.records()).isEmpty();
        assertThat(early.effects()).isEmpty();
        cluster.apply(early);
        // slurmctld shows it "CG COMPLETING Prolog" meanwhile (compat 308).
        assertThat(state.job(2).isRunning()).isTrue();
        assertThat(state.image().isCompleting(state.job(2))).isTrue();
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.PROLOG);

        cluster.apply(AllocationProlog.prologDone(state, "n2", 2, 0, 113));
        ControlResult<java.util.Set<String>> again = batchEnd(state, "n1", 114);
        assertThat(again.response()).isEmpty();
        cluster.apply(again);
        assertThat(state.job(2).status().state()).isEqualTo(JobState.COMPLETED);
    }

    @Test
    void aBatchEndThatWaitedChangesNothingOnceTheOtherNodesPrologFailed() {
        ClusterState state = startedJob(true, ON_N1_N2);
        ControlResult<java.util.Set<String>> early = batchEnd(state, "n1", 112);
        assertThat(early.response()).containsExactly("n2");
        cluster.apply(early);

        cluster.apply(AllocationProlog.prologFailed(state, "n2", 2, 0, "slurm", 113));
        // The requeued job is no longer COMPLETING: its run's wait went with the run.
        assertThat(state.image().isCompleting(state.job(2))).isFalse();
        // The run is over: its end, sent again, is taken and changes nothing.
        ControlResult<java.util.Set<String>> again = batchEnd(state, "n1", 114);
        assertThat(again.response()).isEmpty();
        assertThat(again.records()).isEmpty();
        assertThat(state.job(2).isPending()).isTrue();
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.LAUNCH_FAILED_REQUEUED_HELD);
    }

    @Test
    void theBatchHostsOwnUnreportedPrologDoesNotHoldItsEnd() {
        // The script ran, so its node's Prolog passed.
        ClusterState state = startedJob(true);
        ControlResult<java.util.Set<String>> end = batchEnd(state, "n1", 112);
        assertThat(end.response()).isEmpty();
        cluster.apply(end);
        assertThat(state.job(2).status().state()).isEqualTo(JobState.COMPLETED);
    }
}
