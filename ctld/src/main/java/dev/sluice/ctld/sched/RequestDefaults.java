package dev.sluice.ctld.sched;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.ctld.gres.GresDemands;
import dev.sluice.ctld.select.FeatureConstraint;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import java.util.HashSet;
import java.util.Set;

/** A job's request as the allocator takes it: partition and cluster defaults applied. */
final class RequestDefaults {
    private RequestDefaults() {}

    /** Applies partition and cluster defaults to a job's request. */
    static PlacementRequest apply(JobRequest request, Partition partition, Scheduler.SelectDefaults defaults) {
        long memPerCpu = request.memPerCpuMb();
        if (request.memPerNodeMb() == 0 && memPerCpu == 0) {
            memPerCpu = partition.defMemPerCpuMb() > 0 ? partition.defMemPerCpuMb() : defaults.defMemPerCpuMb();
        }
        // -N2 means two nodes exactly; without -N a job takes as many nodes as its tasks need,
        // as few as possible (Slurm spreads -n8 over two 4-CPU nodes).
        int maxNodes = request.maxNodes() > 0
                ? request.maxNodes()
                : request.minNodes() > 0 ? request.minNodes() : Integer.MAX_VALUE;
        return new PlacementRequest(
                request.effectiveMinNodes(),
                maxNodes,
                request.effectiveTasks(),
                request.effectiveCpusPerTask(),
                request.ntasksPerNode(),
                request.memPerNodeMb(),
                memPerCpu,
                defaults.memoryConsumable(),
                request.exclusive(),
                names(request.reqNodes()),
                names(request.excludeNodes()),
                GresDemands.of(request, defaults.gresNames()),
                constraint(request.constraint()),
                enforceBinding(request.gpuOptions().gresFlags()));
    }

    /** {@code --gres-flags} is a comma list; sbatch has already refused unknown flags. */
    private static boolean enforceBinding(String gresFlags) {
        for (String flag : gresFlags.split(",")) {
            if (flag.strip().equalsIgnoreCase("enforce-binding")) {
                return true;
            }
        }
        return false;
    }

    private static FeatureConstraint constraint(String text) {
        try {
            return FeatureConstraint.parse(text);
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.INVALID_FEATURE);
        }
    }

    private static Set<String> names(String hostlist) {
        if (hostlist == null || hostlist.isBlank()) {
            return Set.of();
        }
        return new HashSet<>(HostList.expand(hostlist));
    }
}
