package dev.sluice.ctld.sched;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import java.util.function.ToIntFunction;

/**
 * Whether a job asks for more than its partition has: more nodes than the partition holds or
 * allows ({@code -N3} on two nodes), or more CPUs than all its nodes together ({@code -n 99}).
 * Slurm decides this before it looks for a placement. With {@code EnforcePartLimits=NO}, its
 * default, such a job is accepted and pends with {@code PartitionNodeLimit} or
 * {@code PartitionConfig} (an administrator may yet grow the partition); with {@code ALL},
 * {@code ANY} or {@code YES} it is refused at submission.
 */
public final class PartitionFit {
    private PartitionFit() {}

    /** @return the reason the job waits on this partition as it is, or null when it fits */
    public static JobReason overLimit(JobRequest request, Partition partition, ToIntFunction<String> nodeCpus) {
        int minNodes = request.effectiveMinNodes();
        if (minNodes > partition.nodes().size()
                || minNodes > partition.limits().maxNodes()
                || (partition.limits().minNodes() > 0
                        && minNodes < partition.limits().minNodes())) {
            return JobReason.PARTITION_NODE_LIMIT;
        }
        long cpus = (long) request.effectiveTasks() * request.effectiveCpusPerTask();
        // Every node has a CPU: only a job asking more CPUs than there are nodes needs the sum.
        if (cpus > partition.nodes().size()) {
            long total = 0;
            for (String node : partition.nodes()) {
                total += nodeCpus.applyAsInt(node);
            }
            if (cpus > total) {
                return JobReason.PARTITION_CONFIG;
            }
        }
        return null;
    }

    /** The error a submission over the limit gets when the partition's limits are enforced. */
    public static ErrorCode refusal(JobReason reason) {
        return reason == JobReason.PARTITION_NODE_LIMIT
                ? ErrorCode.INVALID_NODE_COUNT
                : ErrorCode.TOO_MANY_REQUESTED_CPUS;
    }
}
