package dev.sluice.ctld.control;

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
 * The cores a partial-node reservation ({@code [Nodes=...] CoreCnt=N}) holds: node by node in the
 * order named, the lowest cores no running job holds, until there are N; with a count per node
 * ({@code CoreCnt=2,1}) that many on each node in turn.
 */
final class PartialCores {
    private PartialCores() {}

    /**
     * {@code whole} holding only {@code coreCount} of its nodes' cores when that is fewer than they
     * have (lowest free first: Slurm 22.05 holds cores 0-1 of an idle node for CoreCnt=2), in
     * {@code partition}; else {@code whole} as it is.
     */
    static Reservation hold(ClusterView state, Reservation whole, Integer coreCount, String partition) {
        return hold(state, whole, coreCount, List.of(), partition);
    }

    /**
     * {@link #hold(ClusterView, Reservation, Integer, String)}, or with {@code perNode} (when not
     * empty) that many cores of each of its nodes in turn, none of those past the list's end.
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

    /** Up to {@code count} of the node's cores no running job holds, lowest first. */
    private static List<Integer> lowestFree(ClusterView state, String name, int count) {
        List<Integer> ids = new ArrayList<>();
        Node node = state.node(name);
        if (node == null || count <= 0) {
            return ids;
        }
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
        int cores = node.hardware().cpus() / Math.max(1, node.hardware().threadsPerCore());
        for (int c = 0; c < cores && ids.size() < count; c++) {
            if (!busy.contains(c)) {
                ids.add(c);
            }
        }
        return ids;
    }
}
