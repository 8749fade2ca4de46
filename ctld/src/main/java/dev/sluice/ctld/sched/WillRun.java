package dev.sluice.ctld.sched;

import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code sbatch --test-only}: when and where a job would start if it were submitted now. The
 * answer is the scheduler's own: one pass over the cluster with the job added to the queue, in
 * which every pending job may hold a reservation (so the job is placed behind those ahead of it,
 * as {@code squeue --start} shows them). Pure.
 */
public final class WillRun {
    private WillRun() {}

    /**
     * @param startTime now (or its {@code --begin} time) when the job would start at once, else
     *     its reservation's start
     * @param allocation the nodes and CPUs it would get
     */
    public record Estimate(long startTime, Allocation allocation, String partition) {}

    /** @return empty when the job would not start within the backfill window */
    public static Optional<Estimate> estimate(SchedulerConfig config, ClusterImage image, Job candidate, long now) {
        List<Job> jobs = new ArrayList<>(image.jobs());
        jobs.add(candidate);
        Map<Integer, Job> byId = new HashMap<>(image.jobsById());
        byId.put(candidate.id(), candidate);
        ClusterImage with = new ClusterImage(
                image.sequence(),
                Math.max(image.nextJobId(), candidate.id() + 1),
                image.tables().withJobs(jobs, byId),
                image.queue(),
                image.runs());
        SchedulerConfig deep = SchedulerConfig.builder(config.select())
                .backfill(config.backfill())
                .reservationDepth(Integer.MAX_VALUE)
                .windowSeconds(config.windowSeconds())
                .priority(config.priority())
                .build();
        // --begin in the future: the pass is made as of that time, when the job may first start.
        long at = Math.max(now, candidate.run().eligibleTime());
        SchedulePlan plan = new Scheduler(deep).schedule(with, at);
        for (SchedulePlan.Start start : plan.starts()) {
            if (start.jobId() == candidate.id()) {
                return Optional.of(new Estimate(at, start.allocation(), start.partition()));
            }
        }
        Long reservedAt = plan.expectedStarts().get(candidate.id());
        Allocation reserved = plan.reservations().get(candidate.id());
        if (reservedAt == null || reserved == null) {
            return Optional.empty();
        }
        return Optional.of(new Estimate(reservedAt, reserved, candidate.terms().partition()));
    }
}
