package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.PartitionState;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Dependency;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import java.util.Map;

/**
 * The reasons a pending job waits before any placement is tried, in the order Slurm checks
 * them, with Slurm's reason names (squeue's REASON column).
 */
final class Gates {
    private Gates() {}

    /** @return Slurm's pending reason, or null when the job may be placed */
    static JobReason reason(
            Job job, Partition partition, int task, ClusterImage image, long now, Map<Integer, Integer> runningTasks) {
        switch (job.terms().hold()) {
            case USER -> {
                return JobReason.JOB_HELD_USER;
            }
            case ADMIN -> {
                return JobReason.JOB_HELD_ADMIN;
            }
            case RESV_DEL -> {
                return JobReason.RESERVATION_DELETED;
            }
            case NONE -> {}
        }
        if (job.run().eligibleTime() > now) {
            return JobReason.BEGIN_TIME;
        }
        Dependency dependency = job.request().sequencing().dependency();
        if (!dependency.valid()) {
            return JobReason.DEPENDENCY_NEVER_SATISFIED;
        }
        switch (dependency.evaluate(image, job, task, now)) {
            case WAITING -> {
                return JobReason.DEPENDENCY;
            }
            case NEVER -> {
                return JobReason.DEPENDENCY_NEVER_SATISFIED;
            }
            case SATISFIED -> {}
        }
        if (partition == null) {
            return JobReason.PARTITION_CONFIG;
        }
        if (!partition.isUp()) {
            return partition.state() == PartitionState.INACTIVE
                    ? JobReason.PARTITION_INACTIVE
                    : JobReason.PARTITION_DOWN;
        }
        if (job.terms().timeLimitMinutes() != JobRequest.TIME_INFINITE
                && partition.limits().maxTimeMinutes() != JobRequest.TIME_INFINITE
                && job.terms().timeLimitMinutes() > partition.limits().maxTimeMinutes()) {
            return JobReason.PARTITION_TIME_LIMIT;
        }
        JobReason overLimit = PartitionFit.overLimit(
                job.request(),
                partition,
                n -> image.node(n).map(v -> v.node().hardware().cpus()).orElse(0));
        if (overLimit != null) {
            return overLimit;
        }
        int throttle = job.array().throttle();
        if (throttle > 0 && runningTasks.getOrDefault(job.array().arrayJobId(), 0) >= throttle) {
            return JobReason.JOB_ARRAY_TASK_LIMIT;
        }
        return null;
    }
}
