package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;

/**
 * What sdiag reports of one scheduling pass, read off the image it started from and the plan it
 * made. Sluice's pass is the main scheduler and backfill in one: every pending job is
 * considered in priority order (the main scheduler's depth); once a job is left waiting for
 * resources or priority, the jobs after it are backfill's (its depth), and those of them that
 * start were backfilled.
 *
 * @param queueLength pending jobs in the queue when the pass began
 * @param depth jobs the pass considered (pending and not held)
 * @param blocked whether a job was left waiting in order, so that backfill had work
 * @param backfillDepth jobs considered behind the highest-priority job left waiting
 * @param backfilled of those, the jobs the pass started
 * @param tableSize points in time backfill's plan has: now and each distinct expected start
 */
public record CycleFacts(
        int queueLength, int depth, boolean blocked, int backfillDepth, int backfilled, int tableSize) {

    public static CycleFacts of(ClusterImage image, SchedulePlan plan) {
        long top = Long.MIN_VALUE;
        for (var e : plan.pendingReasons().entrySet()) {
            if (e.getValue() == JobReason.RESOURCES || e.getValue() == JobReason.PRIORITY) {
                top = Math.max(top, plan.priorities().getOrDefault(e.getKey(), 0L));
            }
        }
        boolean blocked = top != Long.MIN_VALUE;
        int queue = 0;
        int depth = 0;
        int behind = 0;
        for (Job job : image.pendingJobs()) {
            queue++;
            if (job.terms().hold() != Job.Hold.NONE) {
                continue;
            }
            depth++;
            if (blocked && plan.priorities().getOrDefault(job.id(), 0L) < top) {
                behind++;
            }
        }
        int backfilled = 0;
        if (blocked) {
            for (SchedulePlan.Start s : plan.starts()) {
                if (plan.priorities().getOrDefault(s.jobId(), 0L) < top) {
                    backfilled++;
                }
            }
        }
        int table = 1 + (int) plan.expectedStarts().values().stream().distinct().count();
        return new CycleFacts(queue, depth, blocked, behind, backfilled, table);
    }
}
