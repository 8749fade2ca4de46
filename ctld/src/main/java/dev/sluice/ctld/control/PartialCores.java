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
 * order named, the lowest cores no running job holds, until there are N.
 */
final class PartialCores {
    private PartialCores() {}

    /**
     * {@code whole} holding only {@code coreCount} of its nodes' cores when that is fewer than they
     * have (lowest free first: Slurm 22.05 holds cores 0-1 of an idle node for CoreCnt=2), in
     * {@code partition}; else {@code whole} as it is.
     */
    static Reservation hold(ClusterView state, Reservation whole, Integer coreCount, String partition) {
        if (coreCount == null || coreCount <= 0 || coreCount >= whole.coreCount()) {
            return whole;
        }
        return new Reservation(
                whole.name(),
                whole.id(),
                whole.start(),
                whole.end(),
                new Reservation.Holding(whole.nodes(), partition, coreCount, pick(state, whole.nodes(), coreCount)),
                new Reservation.Access(whole.users(), whole.usersExcluded(), whole.accounts()),
                whole.flags());
    }

    static Map<String, List<Integer>> pick(ClusterView state, List<String> nodes, int count) {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        int left = count;
        for (String name : nodes) {
            Node node = state.node(name);
            if (node == null || left == 0) {
                continue;
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
            List<Integer> ids = new ArrayList<>();
            for (int c = 0; c < cores && left > 0; c++) {
                if (!busy.contains(c)) {
                    ids.add(c);
                    left--;
                }
            }
            if (!ids.isEmpty()) {
                out.put(name, ids);
            }
        }
        return out;
    }
}
