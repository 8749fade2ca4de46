package dev.sluice.ctld.select;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.gres.GresMatcher;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Allocation.NodeShare;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.NodeHardware;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The pure allocator, Slurm's select/cons_tres in miniature: given the nodes of a partition
 * (in configuration order) and a request, answer where the job goes, why it waits, or why it
 * never can. All-or-nothing: a placement gives every node, CPU, byte and device asked for at
 * once.
 *
 * <p>CPUs are handed out in whole cores, so a one-CPU task on a node with two threads per
 * core holds two CPUs, as Slurm reports ({@code AllocTRES=cpu=2}). Nodes are preferred by
 * lower {@code Weight}, then configuration order; required nodes ({@code -w}) come first. GRES
 * devices are chosen by {@link GresMatcher}, lowest indices first, those near enough free cores
 * ({@code Cores=}) before others; the job's cores are chosen by {@link CoreBinding}, near its
 * devices first, and only near them with {@code --gres-flags=enforce-binding}.
 *
 * <p>No I/O, no clock, no shared state: same inputs, same answer.
 */
public final class Allocator {
    private Allocator() {}

    public static PlacementResult place(List<NodeCapacity> partitionNodes, PlacementRequest request) {
        PlacementResult.Rejected never = rejection(partitionNodes, request);
        return never != null ? never : placeFeasible(partitionNodes, request);
    }

    /**
     * Why the request could never run on these nodes, even were they all idle and up; null when
     * it could. Reads only the nodes' configuration (names, hardware, features, devices), so a
     * caller placing many jobs on changing capacities of the same nodes may remember it.
     */
    public static PlacementResult.Rejected rejection(List<NodeCapacity> partitionNodes, PlacementRequest request) {
        for (String required : request.requiredNodes()) {
            if (partitionNodes.stream().noneMatch(n -> n.name().equals(required))) {
                return new PlacementResult.Rejected(ErrorCode.REQUESTED_NODES_NOT_IN_PARTITION);
            }
        }
        List<NodeCapacity> emptied = eligible(partitionNodes, request).stream()
                .map(NodeCapacity::empty)
                .toList();
        if (fit(emptied, request, true) == null) {
            return new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
        return null;
    }

    /** {@link #place} for a request that {@link #rejection} accepted on the same nodes. */
    public static PlacementResult placeFeasible(List<NodeCapacity> partitionNodes, PlacementRequest request) {
        List<NodeCapacity> eligible = eligible(partitionNodes, request);
        for (NodeCapacity node : eligible) {
            if (request.requiredNodes().contains(node.name()) && !node.schedulable()) {
                return new PlacementResult.Pending(JobReason.REQ_NODE_NOT_AVAIL);
            }
        }
        List<NodeCapacity> usable =
                eligible.stream().filter(NodeCapacity::schedulable).toList();
        Allocation allocation = fit(usable, request, false);
        if (allocation == null) {
            return new PlacementResult.Pending(JobReason.RESOURCES);
        }
        return new PlacementResult.Placed(allocation);
    }

    /**
     * {@link #placeFeasible} over {@code ordered} from {@code cursor[0]} on, for a request that
     * names no nodes (no {@code -w}, no {@code -x}) on nodes already in preference order. The
     * nodes before the cursor are known unable to run one task of this request; the cursor moves
     * past any further such nodes it meets first. A caller whose capacities only shrink between
     * calls (one scheduling pass at one time) may keep the cursor: the answer is the one
     * {@link #placeFeasible} gives, without reading the nodes a full cluster has no room on.
     * Null entries (nodes the capacity map lacks) are skipped.
     */
    public static PlacementResult placeFrom(List<NodeCapacity> ordered, PlacementRequest request, int[] cursor) {
        int at = cursor[0];
        while (at < ordered.size() && !usable(ordered.get(at), request)) {
            at++;
        }
        cursor[0] = at;
        List<NodeCapacity> rest = ordered.subList(at, ordered.size());
        Iterable<NodeCapacity> candidates = () -> rest.stream()
                .filter(n ->
                        n != null && n.schedulable() && request.constraint().matches(n.features()))
                .iterator();
        Allocation allocation = fit(candidates, request, false);
        return allocation == null
                ? new PlacementResult.Pending(JobReason.RESOURCES)
                : new PlacementResult.Placed(allocation);
    }

    /** Whether the node could run one task of the request now (what {@link #fit} skips when not). */
    private static boolean usable(NodeCapacity n, PlacementRequest request) {
        return n != null
                && n.schedulable()
                && request.constraint().matches(n.features())
                && taskCapacity(n, request, false) >= 1;
    }

    private static List<NodeCapacity> eligible(List<NodeCapacity> partitionNodes, PlacementRequest request) {
        List<NodeCapacity> out = new ArrayList<>(partitionNodes.size());
        boolean excluding = !request.excludedNodes().isEmpty();
        boolean sorted = true;
        for (NodeCapacity n : partitionNodes) {
            if ((excluding && request.excludedNodes().contains(n.name()))
                    || !request.constraint().matches(n.features())) {
                continue;
            }
            sorted &= out.isEmpty() || out.getLast().weight() <= n.weight();
            out.add(n);
        }
        // Already in preference order (the usual case: no -w, weights as configured): the
        // stable sort would change nothing, and it is the cost of a search over 10,000 nodes.
        if (!sorted || !request.requiredNodes().isEmpty()) {
            out.sort(preference(request));
        }
        return out;
    }

    private static Comparator<NodeCapacity> preference(PlacementRequest request) {
        // Stable sort: configuration order breaks ties.
        return Comparator.comparing((NodeCapacity n) -> !request.requiredNodes().contains(n.name()))
                .thenComparingInt(NodeCapacity::weight);
    }

    /**
     * Where the request goes on these nodes, null when it does not fit: a greedy fill in
     * preference order, except that a job free to use one node that a single node could hold
     * goes there whole rather than over (or, with {@code -N1}, not at all past) the partly used
     * nodes before it (Slurm 22.05: with n1 running 2 of its 4 CPUs, {@code sbatch -n3} runs on
     * n2 alone).
     */
    private static Allocation fit(Iterable<NodeCapacity> nodes, PlacementRequest request, boolean totalsOnly) {
        Allocation greedy = fill(nodes, request, totalsOnly);
        if ((greedy != null && greedy.nodes().size() == 1)
                || request.tasks() <= 1
                || request.minNodes() > 1
                || !request.requiredNodes().isEmpty()
                || request.gres().gpusPerJob() > 0) {
            return greedy;
        }
        for (NodeCapacity node : nodes) {
            if (taskCapacity(node, request, totalsOnly) >= request.tasks()) {
                Allocation one = distribute(List.of(node), List.of(request.tasks()), request, totalsOnly);
                if (one != null) {
                    return one;
                }
            }
        }
        return greedy;
    }

    /** Greedy fill in preference order; null when the request does not fit these nodes. */
    private static Allocation fill(Iterable<NodeCapacity> nodes, PlacementRequest request, boolean totalsOnly) {
        List<NodeCapacity> chosen = new ArrayList<>();
        List<Integer> capacity = new ArrayList<>();
        int requiredLeft = request.requiredNodes().size();
        int tasksRoom = 0;
        long jobGpusRoom = 0;
        GresDemand demand = request.gres();
        for (NodeCapacity node : nodes) {
            int cap = taskCapacity(node, request, totalsOnly);
            boolean required = request.requiredNodes().contains(node.name());
            if (cap < 1) {
                if (required) {
                    return null;
                }
                continue;
            }
            long spare = demand.gpusPerJob() > 0 ? spareGpus(node, demand, totalsOnly) : 0;
            boolean gpusStillWanted = jobGpusRoom < demand.gpusPerJob();
            if (!required && ((gpusStillWanted && spare == 0) || chosen.size() >= request.tasks())) {
                // Every node runs at least one task, and a --gpus job takes nodes that add GPUs.
                continue;
            }
            chosen.add(node);
            capacity.add(cap);
            tasksRoom += cap;
            jobGpusRoom += spare;
            if (required) {
                requiredLeft--;
            }
            if (requiredLeft == 0
                    && chosen.size() >= request.minNodes()
                    && tasksRoom >= request.tasks()
                    && jobGpusRoom >= demand.gpusPerJob()) {
                return distribute(chosen, capacity, request, totalsOnly);
            }
            if (chosen.size() >= request.maxNodes()) {
                return null;
            }
        }
        return null;
    }

    /** GPUs a node has beyond what its per-node and per-task demand takes (for --gpus). */
    private static long spareGpus(NodeCapacity node, GresDemand demand, boolean totalsOnly) {
        long free = totalsOnly
                ? node.gres().inventory().named("gpu").size()
                : GresMatcher.freeGpus(node.gres(), demand.gpuTypePerJob());
        return Math.max(0, free - demand.gpusOnNode(1));
    }

    private static Allocation distribute(
            List<NodeCapacity> chosen, List<Integer> capacity, PlacementRequest request, boolean totalsOnly) {
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
        GresDemand demand = request.gres();
        long jobGpusLeft = demand.gpusPerJob();
        // A whole node's GPUs are an exclusive job's, as Slurm 22.05 gives them, in place of any
        // MPS or shard share it asked for (recorded: --exclusive -n1 and --exclusive
        // --gres=mps:50 both get TRES gres/gpu=3 and CUDA_VISIBLE_DEVICES=0,1,2; compat 029, 103).
        GresDemand nodeDemand = request.exclusive() ? withoutShares(demand) : demand;
        List<NodeShare> shares = new ArrayList<>();
        for (int i = 0; i < tasks.length; i++) {
            NodeCapacity node = chosen.get(i);
            long extraGpus = 0;
            if (jobGpusLeft > 0) {
                extraGpus = Math.min(jobGpusLeft, spareGpus(node, demand, totalsOnly));
                jobGpusLeft -= extraGpus;
            }
            if (request.exclusive()) {
                long all = totalsOnly
                        ? node.gres().inventory().named("gpu").size()
                        : GresMatcher.freeGpus(node.gres(), "");
                extraGpus = Math.max(extraGpus, all - nodeDemand.gpusOnNode(tasks[i]));
            }
            int threads = node.hardware().threadsPerCore();
            int coresWanted =
                    cpusFor(tasks[i], demand.gpusOnNode(tasks[i]) + extraGpus, node.hardware(), request) / threads;
            List<GresGrant> grants = nodeDemand.isEmpty() && extraGpus == 0
                    ? List.of()
                    : GresMatcher.match(
                            node.gres(),
                            nodeDemand,
                            tasks[i],
                            extraGpus,
                            totalsOnly,
                            CoreBinding.affinity(node, coresWanted));
            if (grants == null) {
                return null;
            }
            long gpus = grants.stream()
                    .filter(g -> g.name().equals("gpu"))
                    .mapToLong(GresGrant::count)
                    .sum();
            int cpus = request.exclusive() ? node.hardware().cpus() : cpusFor(tasks[i], gpus, node.hardware(), request);
            long memory = memoryFor(cpus, node, request) + gpus * demand.memPerGpuMb();
            if (cpus > node.freeCpus() || (request.memoryConsumable() && memory > node.freeMemoryMb())) {
                return null;
            }
            // A whole node is the job's, bound or not: every core, as every CPU.
            List<Integer> cores = request.exclusive()
                    ? CoreSet.range(node.cores()).toList()
                    : CoreBinding.pick(node, grants, cpus / threads, request.enforceBinding());
            if (cores == null) {
                return null;
            }
            shares.add(new NodeShare(node.name(), cpus, memory, tasks[i], grants, cores));
        }
        return new Allocation(shares);
    }

    /** The demand without its MPS and shard shares (an exclusive job has the GPUs whole). */
    private static GresDemand withoutShares(GresDemand d) {
        return new GresDemand(
                d.perNode().stream().filter(g -> !GresUnit.sharesGpu(g.name())).toList(),
                d.gpusPerTask(),
                d.gpuTypePerTask(),
                d.gpusPerJob(),
                d.gpuTypePerJob(),
                d.cpusPerGpu(),
                d.memPerGpuMb());
    }

    /** How many tasks of this request fit on the node as it is now. */
    private static int taskCapacity(NodeCapacity node, PlacementRequest request, boolean totalsOnly) {
        NodeHardware hw = node.hardware();
        if (request.exclusive() && !node.idle()) {
            return 0;
        }
        GresDemand demand = request.gres();
        if (!demand.isEmpty() && GresMatcher.match(node.gres(), demand, 1, 0, totalsOnly) == null) {
            return 0;
        }
        int limit = request.tasksPerNode() > 0 ? request.tasksPerNode() : Integer.MAX_VALUE;
        int tasks = 0;
        while (tasks < limit) {
            int next = tasks + 1;
            long gpus = demand.gpusOnNode(next);
            int cpus = cpusFor(next, gpus, hw, request);
            if (cpus > node.freeCpus() || cpus > hw.cpus()) {
                break;
            }
            if (demand.gpusPerTask() > 0
                    && next > 1
                    && GresMatcher.match(node.gres(), demand, next, 0, totalsOnly) == null) {
                break;
            }
            if (request.enforceBinding() && !bindable(node, demand, next, cpus / hw.threadsPerCore(), totalsOnly)) {
                break;
            }
            int held = request.exclusive() ? hw.cpus() : cpus;
            long memory = memoryFor(held, node, request) + gpus * demand.memPerGpuMb();
            if (request.memoryConsumable() && memory > node.freeMemoryMb()) {
                break;
            }
            tasks = next;
        }
        if (request.tasksPerNode() > 0 && tasks < request.tasksPerNode()) {
            return 0;
        }
        return tasks;
    }

    /** Can this node give {@code tasks} tasks devices with enough free cores bound to them? */
    static boolean bindable(NodeCapacity node, GresDemand demand, int tasks, int cores, boolean totalsOnly) {
        if (demand.isEmpty() || !node.gres().inventory().hasCoreAffinity()) {
            return true;
        }
        List<GresGrant> grants =
                GresMatcher.match(node.gres(), demand, tasks, 0, totalsOnly, CoreBinding.affinity(node, cores));
        return grants != null && CoreBinding.pick(node, grants, cores, true) != null;
    }

    /** CPUs for {@code tasks} tasks and {@code gpus} GPUs ({@code --cpus-per-gpu}), in whole cores. */
    static int cpusFor(int tasks, long gpus, NodeHardware hw, PlacementRequest request) {
        long cpus = Math.max(
                (long) tasks * request.cpusPerTask(), gpus * request.gres().cpusPerGpu());
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
        if (request.gres().memPerGpuMb() > 0) {
            return 0;
        }
        return request.memoryConsumable() ? node.hardware().realMemoryMb() : 0;
    }
}
