package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.PlanApplier;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code sbatch --deadline}: a pending job the pass considers whose time limit, started now,
 * could no longer end before its deadline ends DEADLINE (Slurm 22.05's deadline_ok; compat 304,
 * 305). The clock is the pass's {@code now}.
 */
class TestDeadline {
    private static final long NOW = 1_000_000;

    private final ClusterFixture cluster = ClusterFixture.idle(1, 4, NOW);

    private int submit(JobRequest request, long limitMinutes) {
        return cluster.submit(request, "p", limitMinutes, NOW - 10);
    }

    /** One pass at {@code now}, journaled as the controller journals it. */
    private SchedulePlan pass(long now) {
        SchedulePlan plan = new Scheduler(SchedulerConfig.builder(Scheduler.SelectDefaults.DEFAULT)
                        .build())
                .schedule(cluster.state().image(), now);
        cluster.apply(PlanApplier.apply(cluster.state(), plan, now));
        return plan;
    }

    private Job job(int id) {
        return cluster.state().job(id);
    }

    @Test
    void aJobWhoseTimeLimitCannotEndBeforeItsDeadlineEndsDeadlineWithExitCodeOne() {
        int late = submit(aJob().deadline(NOW + 5 * 60).build(), 10);

        SchedulePlan plan = pass(NOW);

        assertThat(plan.starts()).isEmpty();
        assertThat(plan.pastDeadline()).containsExactly(late);
        assertThat(job(late).status().state()).isEqualTo(JobState.DEADLINE);
        assertThat(job(late).status().reason()).isEqualTo(JobReason.DEADLINE);
        // Slurm sets exit_code 1: sacct's ExitCode 0:1.
        assertThat(job(late).status().exitStatus()).isEqualTo(1);
    }

    @Test
    void aJobThatCanEndBeforeItsDeadlineStartsAsAnyOther() {
        int fits = submit(aJob().deadline(NOW + 5 * 60).build(), 5);

        SchedulePlan plan = pass(NOW);

        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(fits);
        assertThat(plan.pastDeadline()).isEmpty();
        assertThat(job(fits).status().state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aHeldJobIsNotConsideredUntilItIsReleased() {
        int held = submit(aJob().deadline(NOW + 5 * 60).build(), 10);
        cluster.replay(new StateRecord.JobHoldChanged(held, Job.Hold.USER, NOW - 5));

        SchedulePlan plan = pass(NOW);

        assertThat(plan.pastDeadline()).isEmpty();
        assertThat(plan.pendingReasons()).containsEntry(held, JobReason.JOB_HELD_USER);
        assertThat(job(held).status().state()).isEqualTo(JobState.PENDING);

        cluster.replay(new StateRecord.JobHoldChanged(held, Job.Hold.NONE, NOW + 1));
        pass(NOW + 1);

        assertThat(job(held).status().state()).isEqualTo(JobState.DEADLINE);
    }

    @Test
    void aJobWaitingForResourcesEndsOnceItsTimeLimitNoLongerFitsBeforeItsDeadline() {
        int busy = submit(aJob().cpusPerTask(4).build(), 60);
        cluster.replay(new StateRecord.JobStarted(
                busy, new Allocation(List.of(Allocation.NodeShare.of("n1", 4, 0, 1))), "p", 60, NOW - 5));
        int waits = submit(aJob().cpusPerTask(4).deadline(NOW + 100).build(), 1);

        SchedulePlan early = pass(NOW);
        assertThat(early.pastDeadline()).isEmpty();
        assertThat(early.pendingReasons()).containsEntry(waits, JobReason.RESOURCES);

        // A minute's limit from 40 s on reaches exactly the deadline, which still fits.
        assertThat(pass(NOW + 40).pastDeadline()).isEmpty();
        assertThat(pass(NOW + 41).pastDeadline()).containsExactly(waits);
        assertThat(job(waits).status().state()).isEqualTo(JobState.DEADLINE);
        assertThat(job(busy).status().state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aJobWithoutAFiniteTimeLimitNeverMissesItsDeadline() {
        int unlimited = submit(aJob().deadline(NOW + 60).build(), JobRequest.TIME_INFINITE);

        SchedulePlan plan = pass(NOW);

        assertThat(plan.pastDeadline()).isEmpty();
        assertThat(job(unlimited).status().state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aJobWithoutADeadlineIsNotEnded() {
        int plain = submit(aJob().build(), 600);

        assertThat(pass(NOW).pastDeadline()).isEmpty();
        assertThat(job(plain).status().state()).isEqualTo(JobState.RUNNING);
    }
}
