package dev.sluice.ctld.sched;

import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.gres.GresDemands;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The main scheduling pass (Slurm's sched/builtin): pending jobs in priority order, each
 * placed by the {@link Allocator} against capacities that already account for the jobs
 * started earlier in the same pass. Once a job in a partition must wait for resources, lower
 * priority jobs of that partition wait with reason {@code Priority} so they cannot starve it.
 *
 * <p>Pure: reads an immutable image, returns a plan.
 */
public final class Scheduler {
    private final SelectDefaults defaults;

    public Scheduler(SelectDefaults defaults) {
        this.defaults = defaults;
    }

    /**
     * Per-cluster defaults the allocator applies to a request.
     *
     * @param gresNames GRES names the cluster knows (GresTypes and node inventories)
     */
    public record SelectDefaults(boolean memoryConsumable, long defMemPerCpuMb, Set<String> gresNames) {
        public SelectDefaults {
            gresNames = Set.copyOf(gresNames);
        }

        public SelectDefaults(boolean memoryConsumable, long defMemPerCpuMb) {
            this(memoryConsumable, defMemPerCpuMb, Set.of());
        }
    }

    public SchedulePlan schedule(ClusterImage image) {
        Map<String, NodeCapacity> capacity = new LinkedHashMap<>();
        for (NodeView view : image.nodes()) {
            capacity.put(view.name(), capacityOf(view));
        }
        List<Job> pending = image.jobs().stream()
                .filter(Job::isPending)
                .sorted(priorityOrder(image))
                .toList();
        List<SchedulePlan.Start> starts = new ArrayList<>();
        Map<Integer, String> reasons = new HashMap<>();
        Set<String> blockedPartitions = new HashSet<>();
        for (Job job : pending) {
            Partition partition = image.partition(job.partition()).orElse(null);
            String reason = staticReason(job, partition);
            if (reason == null && blockedPartitions.contains(job.partition())) {
                reason = "Priority";
            }
            if (reason != null) {
                reasons.put(job.id(), reason);
                continue;
            }
            List<NodeCapacity> nodes = partition.nodes().stream()
                    .map(capacity::get)
                    .filter(n -> n != null)
                    .toList();
            PlacementResult result;
            try {
                result = Allocator.place(nodes, placementRequest(job.request(), partition, defaults));
            } catch (SlurmException e) {
                // The configuration changed under an accepted job (e.g. its GRES went away).
                reasons.put(job.id(), "BadConstraints");
                continue;
            }
            switch (result) {
                case PlacementResult.Placed placed -> {
                    Allocation allocation = placed.allocation();
                    starts.add(new SchedulePlan.Start(job.id(), allocation, partition.name(), job.timeLimitMinutes()));
                    for (Allocation.NodeShare share : allocation.nodes()) {
                        capacity.computeIfPresent(share.node(), (k, n) -> n.minus(share));
                    }
                }
                case PlacementResult.Pending waiting -> {
                    reasons.put(job.id(), waiting.reason());
                    blockedPartitions.add(job.partition());
                }
                case PlacementResult.Rejected rejected -> reasons.put(job.id(), "BadConstraints");
            }
        }
        return new SchedulePlan(starts, reasons);
    }

    /** Reasons that need no placement attempt (Slurm checks these before select). */
    private static String staticReason(Job job, Partition partition) {
        JobRequest request = job.request();
        if (request.hold()) {
            return "JobHeldUser";
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
        int minNodes = request.effectiveMinNodes();
        if (minNodes > partition.maxNodes() || (partition.minNodes() > 0 && minNodes < partition.minNodes())) {
            return "PartitionNodeLimit";
        }
        return null;
    }

    /** Higher partition PriorityTier first, then submission order (job id). */
    private static Comparator<Job> priorityOrder(ClusterImage image) {
        return Comparator.comparingInt((Job j) -> -image.partition(j.partition())
                        .map(Partition::priorityTier)
                        .orElse(0))
                .thenComparingInt(Job::id);
    }

    static NodeCapacity capacityOf(NodeView view) {
        return new NodeCapacity(
                view.name(),
                view.node().hardware(),
                view.freeCpus(),
                view.freeMemoryMb(),
                view.runningJobs() == 0 && view.allocCpus() == 0,
                view.isSchedulable(),
                view.node().features(),
                view.node().weight(),
                view.gres());
    }

    /** Applies partition and cluster defaults to a job's request. */
    public static PlacementRequest placementRequest(JobRequest request, Partition partition, SelectDefaults defaults) {
        long memPerCpu = request.memPerCpuMb();
        if (request.memPerNodeMb() == 0 && memPerCpu == 0) {
            memPerCpu = partition.defMemPerCpuMb() > 0 ? partition.defMemPerCpuMb() : defaults.defMemPerCpuMb();
        }
        int maxNodes = request.maxNodes() > 0 ? request.maxNodes() : request.effectiveMinNodes();
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
                GresDemands.of(request, defaults.gresNames()));
    }

    private static Set<String> names(String hostlist) {
        if (hostlist == null || hostlist.isBlank()) {
            return Set.of();
        }
        return new HashSet<>(dev.sluice.common.hostlist.HostList.expand(hostlist));
    }
}
