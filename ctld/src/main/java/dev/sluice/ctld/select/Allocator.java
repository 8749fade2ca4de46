package dev.sluice.ctld.select;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Allocation.NodeShare;
import dev.sluice.ctld.state.NodeHardware;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The pure allocator, Slurm's select/cons_tres in miniature: given the nodes of a partition
 * (in configuration order) and a request, answer where the job goes, why it waits, or why it
 * never can. All-or-nothing: a placement gives every node, CPU and byte asked for at once.
 *
 * <p>CPUs are handed out in whole cores, so a one-CPU task on a node with two threads per
 * core holds two CPUs, as Slurm reports ({@code AllocTRES=cpu=2}). Nodes are preferred by
 * lower {@code Weight}, then configuration order; required nodes ({@code -w}) come first.
 *
 * <p>No I/O, no clock, no shared state: same inputs, same answer.
 */
public final class Allocator {
    private Allocator() {}

    public static PlacementResult place(List<NodeCapacity> partitionNodes, PlacementRequest request) {
        for (String required : request.requiredNodes()) {
            if (partitionNodes.stream().noneMatch(n -> n.name().equals(required))) {
                return new PlacementResult.Rejected(ErrorCode.REQUESTED_NODES_NOT_IN_PARTITION);
            }
        }
        List<NodeCapacity> eligible = partitionNodes.stream()
                .filter(n -> !request.excludedNodes().contains(n.name()))
                .sorted(preference(request))
                .toList();
        List<NodeCapacity> emptied = eligible.stream().map(NodeCapacity::empty).toList();
        if (fit(emptied, request) == null) {
            return new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
        for (NodeCapacity node : eligible) {
            if (request.requiredNodes().contains(node.name()) && !node.schedulable()) {
                return new PlacementResult.Pending("ReqNodeNotAvail");
            }
        }
        List<NodeCapacity> usable =
                eligible.stream().filter(NodeCapacity::schedulable).toList();
        Allocation allocation = fit(usable, request);
        if (allocation == null) {
            return new PlacementResult.Pending("Resources");
        }
        return new PlacementResult.Placed(allocation);
    }

    private static Comparator<NodeCapacity> preference(PlacementRequest request) {
        // Stable sort: configuration order breaks ties.
        return Comparator.comparing((NodeCapacity n) -> !request.requiredNodes().contains(n.name()))
                .thenComparingInt(NodeCapacity::weight);
    }

    /** Greedy fill in preference order; null when the request does not fit these nodes. */
    private static Allocation fit(List<NodeCapacity> nodes, PlacementRequest request) {
        List<NodeCapacity> chosen = new ArrayList<>();
        List<Integer> capacity = new ArrayList<>();
        int requiredLeft = request.requiredNodes().size();
        for (NodeCapacity node : nodes) {
            int cap = taskCapacity(node, request);
            boolean required = request.requiredNodes().contains(node.name());
            if (cap < 1) {
                if (required) {
                    return null;
                }
                continue;
            }
            chosen.add(node);
            capacity.add(cap);
            if (required) {
                requiredLeft--;
            }
            int total = capacity.stream().mapToInt(Integer::intValue).sum();
            if (requiredLeft == 0 && chosen.size() >= request.minNodes() && total >= request.tasks()) {
                return distribute(chosen, capacity, request);
            }
            if (chosen.size() >= request.maxNodes()) {
                return null;
            }
        }
        return null;
    }

    private static Allocation distribute(List<NodeCapacity> chosen, List<Integer> capacity, PlacementRequest request) {
        int[] tasks = new int[chosen.size()];
        int left = request.tasks();
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = 1;
            left--;
        }
        for (int i = 0; i < tasks.length && left > 0; i++) {
            int extra = Math.min(left, capacity.get(i) - tasks[i]);
            tasks[i] += extra;
            left -= extra;
        }
        List<NodeShare> shares = new ArrayList<>();
        for (int i = 0; i < tasks.length; i++) {
            NodeCapacity node = chosen.get(i);
            int cpus = request.exclusive() ? node.hardware().cpus() : cpusFor(tasks[i], node.hardware(), request);
            shares.add(new NodeShare(node.name(), cpus, memoryFor(cpus, node, request), tasks[i]));
        }
        return new Allocation(shares);
    }

    /** How many tasks of this request fit on the node as it is now. */
    private static int taskCapacity(NodeCapacity node, PlacementRequest request) {
        NodeHardware hw = node.hardware();
        if (request.exclusive() && !node.idle()) {
            return 0;
        }
        int limit = request.tasksPerNode() > 0 ? request.tasksPerNode() : Integer.MAX_VALUE;
        int tasks = 0;
        while (tasks < limit) {
            int next = tasks + 1;
            int cpus = cpusFor(next, hw, request);
            if (cpus > node.freeCpus() || cpus > hw.cpus()) {
                break;
            }
            int held = request.exclusive() ? hw.cpus() : cpus;
            if (request.memoryConsumable() && memoryFor(held, node, request) > node.freeMemoryMb()) {
                break;
            }
            tasks = next;
        }
        if (request.tasksPerNode() > 0 && tasks < request.tasksPerNode()) {
            return 0;
        }
        return tasks;
    }

    /** CPUs for {@code tasks} tasks, rounded up to whole cores. */
    static int cpusFor(int tasks, NodeHardware hw, PlacementRequest request) {
        long cpus = (long) tasks * request.cpusPerTask();
        int threads = hw.threadsPerCore();
        long cores = (cpus + threads - 1) / threads;
        return (int) Math.min(Integer.MAX_VALUE, cores * threads);
    }

    static long memoryFor(int cpus, NodeCapacity node, PlacementRequest request) {
        if (request.memPerNodeMb() > 0) {
            return request.memPerNodeMb();
        }
        if (request.memPerCpuMb() > 0) {
            return request.memPerCpuMb() * cpus;
        }
        return request.memoryConsumable() ? node.hardware().realMemoryMb() : 0;
    }
}
