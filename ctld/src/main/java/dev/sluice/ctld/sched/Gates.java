package dev.sluice.ctld.sched;

import dev.sluice.ctld.queue.Dependency;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import java.util.Map;

/**
 * The reasons a pending job waits before any placement is tried, in the order Slurm checks
 * them, with Slurm's reason names (squeue's REASON column).
 */
final class Gates {
    /** The dependency can never be met. */
    static final String NEVER = "DependencyNeverSatisfied";

    private Gates() {}

    /** @return Slurm's pending reason, or null when the job may be placed */
    static String reason(
            Job job, Partition partition, int task, ClusterImage image, long now, Map<Integer, Integer> runningTasks) {
        switch (job.hold()) {
            case USER -> {
                return "JobHeldUser";
            }
            case ADMIN -> {
                return "JobHeldAdmin";
            }
            case NONE -> {}
        }
        if (job.eligibleTime() > now) {
            return "BeginTime";
        }
        Dependency dependency;
        try {
            dependency = Dependency.parse(job.request().sequencing().dependency());
        } catch (IllegalArgumentException e) {
            return NEVER;
        }
        switch (dependency.evaluate(image, job, task, now)) {
            case WAITING -> {
                return "Dependency";
            }
            case NEVER -> {
                return NEVER;
            }
            case SATISFIED -> {}
        }
        if (partition == null) {
            return "PartitionConfig";
        }
        if (!partition.isUp()) {
            return partition.state().equalsIgnoreCase("INACTIVE") ? "PartitionInactive" : "PartitionDown";
        }
        if (job.timeLimitMinutes() != JobRequest.TIME_INFINITE
                && partition.maxTimeMinutes() != JobRequest.TIME_INFINITE
                && job.timeLimitMinutes() > partition.maxTimeMinutes()) {
            return "PartitionTimeLimit";
        }
        int minNodes = job.request().effectiveMinNodes();
        if (minNodes > partition.maxNodes() || (partition.minNodes() > 0 && minNodes < partition.minNodes())) {
            return "PartitionNodeLimit";
        }
        int throttle = job.array().throttle();
        if (throttle > 0 && runningTasks.getOrDefault(job.array().arrayJobId(), 0) >= throttle) {
            return "JobArrayTaskLimit";
        }
        return null;
    }
}
