package dev.sluice.ctld.sched;

import dev.sluice.ctld.gres.GresDemands;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;

/**
 * A job's request as the allocator takes it: partition and cluster defaults applied. Its parts
 * were parsed when the request arrived; nothing here reads text.
 */
final class RequestDefaults {
    private RequestDefaults() {}

    /** Applies partition and cluster defaults to a job's request. */
    static PlacementRequest apply(JobRequest request, Partition partition, Scheduler.SelectDefaults defaults) {
        long memPerCpu = request.memory().perCpuMb();
        if (request.memory().perNodeMb() == 0 && memPerCpu == 0) {
            memPerCpu = partition.memory().defMemPerCpuMb() > 0
                    ? partition.memory().defMemPerCpuMb()
                    : defaults.defMemPerCpuMb();
        }
        // -N2 means two nodes exactly; without -N a job takes as many nodes as its tasks need,
        // as few as possible (Slurm spreads -n8 over two 4-CPU nodes).
        int maxNodes = request.size().maxNodes() > 0
                ? request.size().maxNodes()
                : request.size().minNodes() > 0 ? request.size().minNodes() : Integer.MAX_VALUE;
        return new PlacementRequest(
                new PlacementRequest.Shape(
                        request.effectiveMinNodes(),
                        maxNodes,
                        request.effectiveTasks(),
                        request.effectiveCpusPerTask(),
                        request.size().ntasksPerNode()),
                new PlacementRequest.MemoryAsk(request.memory().perNodeMb(), memPerCpu, defaults.memoryConsumable()),
                new PlacementRequest.NodeChoice(
                        request.placement().exclusive(),
                        request.placement().reqNodes().names(),
                        request.placement().excludeNodes().names(),
                        request.placement().constraint()),
                GresDemands.of(request, defaults.gresNames()),
                request.gpuOptions().enforceBinding());
    }
}
