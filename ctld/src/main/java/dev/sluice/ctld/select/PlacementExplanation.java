package dev.sluice.ctld.select;

import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.gres.GresMatcher;
import dev.sluice.ctld.gres.GresUnit;
import java.util.List;

/**
 * Why a job waits for resources, in numbers a user can act on (beyond Slurm, which says only
 * {@code Resources}): what each node must offer, how many nodes qualify now and why the others
 * do not, and the best node's free amounts. Shown by {@code scontrol show job} as
 * {@code ReasonDetail=}.
 *
 * <p>Pure, like the allocator whose filters it replays.
 */
public final class PlacementExplanation {
    private PlacementExplanation() {}

    public static String explain(List<NodeCapacity> nodes, PlacementRequest request) {
        int excluded = 0;
        int unavailable = 0;
        int busy = 0;
        int qualify = 0;
        NodeCapacity best = null;
        for (NodeCapacity n : nodes) {
            if (request.excludedNodes().contains(n.name())) {
                excluded++;
                continue;
            }
            if (!n.schedulable()) {
                unavailable++;
                continue;
            }
            if (best == null || n.freeCpus() > best.freeCpus()) {
                best = n;
            }
            if (fitsOneTask(n, request)) {
                qualify++;
            } else {
                busy++;
            }
        }
        StringBuilder s = new StringBuilder("needs ").append(request.minNodes()).append(" node(s)");
        s.append(" with ").append(perNodeNeed(request)).append(" each");
        if (request.enforceBinding()) {
            s.append(", cores bound to the GPUs (enforce-binding)");
        }
        s.append("; ").append(qualify).append(" of ").append(nodes.size()).append(" node(s) qualify now");
        if (busy > 0) {
            s.append(", ").append(busy).append(" too busy");
        }
        if (unavailable > 0) {
            s.append(", ").append(unavailable).append(" down/drained/not responding");
        }
        if (excluded > 0) {
            s.append(", ").append(excluded).append(" excluded");
        }
        if (best != null) {
            // A future view of the timeline may overbook a node: what it has free is then none.
            Tres free = Tres.empty().with("cpu", Math.max(0, best.freeCpus()));
            if (request.memoryConsumable()) {
                free = free.with("mem", Math.max(0, best.freeMemoryMb()));
            }
            for (GresDemand.Item item : request.gres().perNode()) {
                free = free.with("gres/" + item.name(), Math.max(0, freeOf(best, item.name())));
            }
            s.append("; best node ").append(best.name()).append(" has ").append(free.format());
            s.append(" free");
        }
        return s.toString();
    }

    private static String perNodeNeed(PlacementRequest r) {
        int tasksPerNode = Math.max(1, r.tasksPerNode() > 0 ? r.tasksPerNode() : r.tasks() / r.minNodes());
        Tres need = r.exclusive() ? Tres.empty() : Tres.empty().with("cpu", tasksPerNode * r.cpusPerTask());
        if (r.memPerNodeMb() > 0) {
            need = need.with("mem", r.memPerNodeMb());
        }
        for (GresDemand.Item item : r.gres().perNode()) {
            need = need.with("gres/" + item.name() + (item.type().isEmpty() ? "" : ":" + item.type()), item.count());
        }
        // A whole node (--exclusive): every CPU it has, whatever the count.
        if (r.exclusive()) {
            return need.isEmpty() ? "all CPUs" : "all CPUs," + need.format();
        }
        return need.format();
    }

    private static boolean fitsOneTask(NodeCapacity n, PlacementRequest r) {
        if (r.exclusive() && !n.idle()) {
            return false;
        }
        if (n.freeCpus() < r.cpusPerTask()) {
            return false;
        }
        if (r.enforceBinding()) {
            int cores = Allocator.cpusFor(1, r.gres().gpusOnNode(1), n.hardware(), r)
                    / n.hardware().threadsPerCore();
            if (!Allocator.bindable(n, r.gres(), 1, cores, false)) {
                return false;
            }
        }
        return r.gres().isEmpty() || GresMatcher.match(n.gres(), r.gres(), 1, 0, false) != null;
    }

    private static long freeOf(NodeCapacity n, String name) {
        long free = 0;
        for (GresUnit u : n.gres().inventory().named(name)) {
            free += n.gres().free(u);
        }
        return free;
    }
}
