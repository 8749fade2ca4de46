package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Reservation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cores a partial-node reservation ({@code [Nodes=...] CoreCnt=N}) holds: the lowest cores no
 * running job holds, node by node; with a count per node ({@code CoreCnt=2,1}) that many on each
 * node in turn. With {@code Nodes=} the counts must go with the nodes named ({@link #holdNamed}).
 */
final class PartialCores {
    private PartialCores() {}

    /**
     * {@code CoreCnt=} alone: {@code count} cores taken node by node from {@code candidates}, in
     * order, the lowest of each that no running job (unless IGNORE_JOBS) and no other partial
     * reservation holds, as Slurm 22.05 takes them (compat 260: CoreCnt=2 beside a job on three
     * of n1's four cores is n1's core 3 and n2's core 0). {@code template} gives the rest of the
     * reservation; too few free cores is {@code Requested nodes are busy}.
     */
    static Reservation spread(ClusterView state, Reservation template, int count, List<String> candidates) {
        Map<String, List<Integer>> held = new LinkedHashMap<>();
        int left = count;
        for (String node : candidates) {
            if (left <= 0) {
                break;
            }
            Set<Integer> taken = reservedCores(state, template, node);
            if (!template.has(ReservationFlag.IGNORE_JOBS)) {
                taken.addAll(busyCores(state, node));
            }
            List<Integer> ids = lowest(state, node, left, taken);
            if (!ids.isEmpty()) {
                held.put(node, ids);
                left -= ids.size();
            }
        }
        if (left > 0 || count <= 0) {
            throw new SlurmException(ErrorCode.NODES_BUSY);
        }
        return new Reservation(
                template.name(),
                template.id(),
                template.start(),
                template.end(),
                new Reservation.Holding(List.copyOf(held.keySet()), template.partition(), count, held),
                new Reservation.Access(template.users(), template.usersExcluded(), template.accounts()),
                template.flags());
    }

    /**
     * {@code whole} ({@code CoreCnt=2,1} without {@code Nodes=}) holding only {@code coreCount} of its
     * nodes' cores when that is fewer than they have (lowest free first: Slurm 22.05 holds cores
     * 0-1 of an idle node for CoreCnt=2), in {@code partition}, or with {@code perNode} (when not
     * empty) that many cores of each of its nodes in turn, none of those past the list's end; else
     * {@code whole} as it is.
     */
    static Reservation hold(
            ClusterView state, Reservation whole, Integer coreCount, List<Integer> perNode, String partition) {
        if (coreCount == null || coreCount <= 0 || coreCount >= whole.coreCount()) {
            return whole;
        }
        Map<String, List<Integer>> cores =
                perNode.isEmpty() ? pick(state, whole.nodes(), coreCount) : pickEach(state, whole.nodes(), perNode);
        return new Reservation(
                whole.name(),
                whole.id(),
                whole.start(),
                whole.end(),
                new Reservation.Holding(whole.nodes(), partition, coreCount, cores),
                new Reservation.Access(whole.users(), whole.usersExcluded(), whole.accounts()),
                whole.flags());
    }

    /**
     * {@code Nodes=... CoreCnt=...}: the counts as Slurm 22.05 takes them (compat 258, 273). One
     * node takes the first count (the others are ignored); several take a count each, in order:
     * fewer counts than nodes (one count over two nodes included, whatever it is) is {@code Core
     * count for reservation node list is not consistent!}, more is {@code Requested nodes are
     * busy}, as is a count above what its node has free (its cores, less those running jobs hold
     * unless IGNORE_JOBS). The cores are named even when a count is
     * all of its node's ({@code Nodes=n1 CoreCnt=4}: {@code CoreIDs=0-3}). Without {@code CoreCnt=}
     * the nodes are held whole.
     */
    static Reservation holdNamed(ClusterView state, Reservation whole, ReservationSpec.Cores cores, String partition) {
        if (cores.count() == null) {
            return whole;
        }
        List<String> nodes = whole.nodes();
        List<Integer> counts = cores.perNode().isEmpty() ? List.of(cores.count()) : cores.perNode();
        if (nodes.size() > 1 && counts.size() < nodes.size()) {
            throw new SlurmException(ErrorCode.INVALID_CORE_CNT);
        }
        if (nodes.size() > 1 && counts.size() > nodes.size()) {
            throw new SlurmException(ErrorCode.NODES_BUSY);
        }
        Map<String, List<Integer>> held = new LinkedHashMap<>();
        int total = 0;
        for (int i = 0; i < nodes.size(); i++) {
            int count = counts.get(i);
            // IGNORE_JOBS takes the lowest cores whatever runs on them (Slurm 22.05: CoreIDs=0-1
            // beside a job on cores 0-2); else cores a job holds are not free.
            Set<Integer> reserved = reservedCores(state, whole, nodes.get(i));
            List<Integer> ids = whole.has(ReservationFlag.IGNORE_JOBS)
                    ? lowest(state, nodes.get(i), count, reserved)
                    : lowest(state, nodes.get(i), count, union(reserved, busyCores(state, nodes.get(i))));
            if (ids.size() < count) {
                throw new SlurmException(ErrorCode.NODES_BUSY);
            }
            if (!ids.isEmpty()) {
                held.put(nodes.get(i), ids);
            }
            total += count;
        }
        return new Reservation(
                whole.name(),
                whole.id(),
                whole.start(),
                whole.end(),
                new Reservation.Holding(nodes, partition, total, held),
                new Reservation.Access(whole.users(), whole.usersExcluded(), whole.accounts()),
                whole.flags());
    }

    static Map<String, List<Integer>> pick(ClusterView state, List<String> nodes, int count) {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        int left = count;
        for (String name : nodes) {
            List<Integer> ids = lowestFree(state, name, left);
            left -= ids.size();
            if (!ids.isEmpty()) {
                out.put(name, ids);
            }
        }
        return out;
    }

    private static Map<String, List<Integer>> pickEach(ClusterView state, List<String> nodes, List<Integer> perNode) {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (int i = 0; i < nodes.size() && i < perNode.size(); i++) {
            List<Integer> ids = lowestFree(state, nodes.get(i), perNode.get(i));
            if (!ids.isEmpty()) {
                out.put(nodes.get(i), ids);
            }
        }
        return out;
    }

    /**
     * The node's cores another partial reservation holds at some time of {@code r}'s window: a
     * second one on the node takes the cores left (Slurm 22.05: CoreIDs=2-3 beside 0-1, compat
     * 259), and is busy when too few are.
     */
    static Set<Integer> reservedCores(ClusterView state, Reservation r, String node) {
        Set<Integer> out = new HashSet<>();
        for (Reservation other : state.reservations().all()) {
            if (!other.name().equals(r.name())
                    && other.partial()
                    && (other.overlaps(r.start(), r.end()) || r.overlaps(other.start(), other.end()))) {
                out.addAll(other.cores().getOrDefault(node, List.of()));
            }
        }
        return out;
    }

    private static Set<Integer> union(Set<Integer> a, Set<Integer> b) {
        Set<Integer> out = new HashSet<>(a);
        out.addAll(b);
        return out;
    }

    /** Up to {@code count} of the node's cores no running job holds, lowest first. */
    private static List<Integer> lowestFree(ClusterView state, String name, int count) {
        return lowest(state, name, count, busyCores(state, name));
    }

    /** The node's cores running jobs hold. */
    private static Set<Integer> busyCores(ClusterView state, String name) {
        Set<Integer> busy = new HashSet<>();
        for (Job job : state.jobs()) {
            if (job.holdsNodes()) {
                for (Allocation.NodeShare s : job.allocation().nodes()) {
                    if (s.node().equals(name)) {
                        busy.addAll(s.cores());
                    }
                }
            }
        }
        return busy;
    }

    /** Up to {@code count} of the node's cores but {@code busy}, lowest first. */
    static List<Integer> lowest(ClusterView state, String name, int count, Set<Integer> busy) {
        List<Integer> ids = new ArrayList<>();
        Node node = state.node(name);
        if (node == null || count <= 0) {
            return ids;
        }
        int cores = node.hardware().cpus() / Math.max(1, node.hardware().threadsPerCore());
        for (int c = 0; c < cores && ids.size() < count; c++) {
            if (!busy.contains(c)) {
                ids.add(c);
            }
        }
        return ids;
    }
}
