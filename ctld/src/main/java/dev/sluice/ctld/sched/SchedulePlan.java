package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.state.Allocation;
import java.util.List;
import java.util.Map;

/**
 * What one scheduling pass decided: jobs (or array tasks) to start now, jobs to cancel because
 * their dependency can never be met ({@code --kill-on-invalid-dep}), jobs to end DEADLINE
 * because their time limit can no longer end before their {@code --deadline}
 * ({@code pastDeadline}), and for every other pending job why it waits (with a detail in numbers
 * when it waits for resources), its priority and, where backfill reserved it a place, when it
 * should start and on what ({@code reservations}); the running jobs preempted for a pending one
 * ({@code preemptions}), and the jobs suspended by preemption whose resources are free again, to
 * resume ({@code resumes}). A value; the controller loop turns it into journaled records and
 * launches.
 */
public record SchedulePlan(
        List<Start> starts,
        List<Integer> cancels,
        List<Integer> pastDeadline,
        Map<Integer, JobReason> pendingReasons,
        Map<Integer, Long> expectedStarts,
        Map<Integer, Long> priorities,
        Map<Integer, String> details,
        Map<Integer, Allocation> reservations,
        List<Preempt> preemptions,
        List<Integer> resumes) {

    public SchedulePlan {
        starts = List.copyOf(starts);
        cancels = List.copyOf(cancels);
        pastDeadline = List.copyOf(pastDeadline);
        pendingReasons = Map.copyOf(pendingReasons);
        expectedStarts = Map.copyOf(expectedStarts);
        priorities = dev.sluice.ctld.queue.BasicPriorities.immutable(priorities);
        details = Map.copyOf(details);
        reservations = Map.copyOf(reservations);
        preemptions = List.copyOf(preemptions);
        resumes = List.copyOf(resumes);
    }

    /** This plan with other reasons for its pending jobs. */
    public SchedulePlan withPendingReasons(Map<Integer, JobReason> reasons) {
        return new SchedulePlan(
                starts,
                cancels,
                pastDeadline,
                reasons,
                expectedStarts,
                priorities,
                details,
                reservations,
                preemptions,
                resumes);
    }

    /**
     * A running job to preempt so that {@code preemptorId} can start once it is gone, or, with
     * SUSPEND, at once on its resources.
     *
     * @param mode CANCEL (it ends PREEMPTED), REQUEUE (it pends again) or SUSPEND (it stops until
     *     the preemptor's resources are free again)
     * @param holdBackSeconds how long a requeued one waits before it may start again
     * @param graceSeconds its GraceTime: SIGTERM now, the end only then (0: at once)
     */
    public record Preempt(int jobId, PreemptMode mode, int preemptorId, long holdBackSeconds, long graceSeconds) {}

    /**
     * @param taskId the array task to split off and start, -1 for a plain job
     * @param suspended it starts on cores a running job of its gang holds, and waits for its turn
     *     suspended (Slurm 22.05's gang scheduler, compat 211, 212)
     */
    public record Start(
            int jobId, int taskId, Allocation allocation, String partition, long timeLimitMinutes, boolean suspended) {}
}
