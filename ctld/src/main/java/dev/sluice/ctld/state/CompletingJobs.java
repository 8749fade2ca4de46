package dev.sluice.ctld.state;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ObjIntConsumer;

/**
 * Soft: jobs that ended while their processes were still being killed, and where (COMPLETING).
 * Kept apart from {@link ClusterState} because it is rebuilt from the nodes' reports, never
 * journaled; the owner only learns which allocation to take or release. The map is immutable
 * and replaced on change, so images share it.
 */
final class CompletingJobs {
    private Map<Integer, Completing> completing = Map.of();

    /** A job's allocation, held while its processes are killed on {@code nodes}. */
    private record Completing(Allocation allocation, Set<String> nodes) {}

    Set<String> on(int jobId) {
        Completing c = completing.get(jobId);
        return c == null ? Set.of() : c.nodes();
    }

    Set<Integer> jobIds() {
        return completing.keySet();
    }

    /**
     * Whether {@code job} still has processes being killed on {@code node}. Its allocation is
     * taken ({@code +1}) when the first node reports and released ({@code -1}) after the last.
     *
     * @return whether anything changed
     */
    boolean mark(int jobId, Job job, String node, boolean stillKilling, ObjIntConsumer<Allocation> account) {
        Completing was = completing.get(jobId);
        if (was == null && (!stillKilling || job == null || job.allocation() == null)) {
            return false;
        }
        Set<String> nodes = new TreeSet<>(was == null ? Set.of() : was.nodes());
        if (stillKilling) {
            nodes.add(node);
        } else {
            nodes.remove(node);
        }
        Allocation held = was == null ? job.allocation() : was.allocation();
        Map<Integer, Completing> next = new HashMap<>(completing);
        if (nodes.isEmpty()) {
            next.remove(jobId);
            account.accept(held, -1);
        } else {
            next.put(jobId, new Completing(held, Set.copyOf(nodes)));
            if (was == null) {
                account.accept(held, +1);
            }
        }
        completing = Map.copyOf(next);
        return true;
    }
}
