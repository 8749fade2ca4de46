package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PrologFlags=Alloc: a job started while a Prolog runs at allocation shows reason Prolog until its
 * batch host reports it done (compat 246, 247); signals are not held meanwhile.
 */
class TestAllocationProlog {
    private static final Caller ROOT = Caller.of(0, 0, "root");
    private static final int SIGUSR1 = 10;

    private final PlanFixture cluster =
            new PlanFixture().submit(2, Builders.aJob().build());

    private ClusterState startedJob(boolean prologWaited) {
        SchedulePlan plan = PlanFixture.starting(List.of(PlanFixture.start(2, -1, false)), List.of());
        cluster.apply(PlanApplier.apply(cluster.state, plan, 110, prologWaited));
        return cluster.state;
    }

    @Test
    void aJobStartedWhileThePrologIsWaitedForShowsReasonPrologUntilItsBatchHostReportsItDone() {
        ClusterState state = startedJob(true);
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.PROLOG);

        // Another node's report, or an earlier run's, changes nothing.
        cluster.apply(AllocationProlog.prologDone(state, "n2", 2, 0));
        cluster.apply(AllocationProlog.prologDone(state, "n1", 2, 1));
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.PROLOG);

        cluster.apply(AllocationProlog.prologDone(state, "n1", 2, 0));
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.NONE);
        assertThat(state.waitsForProlog(state.job(2))).isFalse();
    }

    @Test
    void withoutAWaitedPrologTheJobRunsWithNoReasonAndAReportChangesNothing() {
        ClusterState state = startedJob(false);
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.NONE);
        ControlResult<Void> report = AllocationProlog.prologDone(state, "n1", 2, 0);
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
}
