package dev.sluice.ctld.select;

import dev.sluice.ctld.gres.CoreAffinity;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.gres.GresUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of a node's free cores a job gets. Cores near the job's devices ({@code Cores=} of the
 * GPUs, MPS or shards it was given) come first, lowest index first, then the other free cores;
 * with {@code --gres-flags=enforce-binding} only the near ones, so a job whose devices' cores
 * are taken waits even when other cores are free, as Slurm's cons_tres does.
 *
 * <p>Pure: the answer depends only on the arguments.
 */
final class CoreBinding {
    private CoreBinding() {}

    /**
     * @return the cores, ascending, or null when not enough suitable cores are free
     */
    static List<Integer> pick(NodeCapacity node, List<GresGrant> grants, int wanted, boolean enforce) {
        List<Integer> free = node.freeCores();
        Set<Integer> near = near(node, grants);
        List<Integer> picked = new ArrayList<>();
        for (int c : free) {
            if (picked.size() < wanted && (near == null || near.contains(c))) {
                picked.add(c);
            }
        }
        if (!enforce || near == null) {
            for (int c : free) {
                if (picked.size() < wanted && near != null && !near.contains(c)) {
                    picked.add(c);
                }
            }
        }
        if (picked.size() < wanted) {
            return null;
        }
        picked.sort(Integer::compare);
        return picked;
    }

    /** Cores bound to the granted devices; null when any core will do. */
    private static Set<Integer> near(NodeCapacity node, List<GresGrant> grants) {
        Set<Integer> near = new HashSet<>();
        boolean bound = false;
        for (GresGrant g : grants) {
            if (!g.name().equals("gpu") && !GresUnit.sharesGpu(g.name())) {
                continue;
            }
            for (GresUnit u : node.gres().inventory().named(g.name())) {
                if (!g.indices().contains(u.index())) {
                    continue;
                }
                if (u.cores().isEmpty()) {
                    // A device without Cores= may use any core (gres.conf).
                    return null;
                }
                near.addAll(u.cores());
                bound = true;
            }
        }
        return bound ? near : null;
    }

    /** What the matcher should know to prefer devices near free cores. */
    static CoreAffinity affinity(NodeCapacity node, int coresWanted) {
        if (!node.gres().inventory().hasCoreAffinity()) {
            return CoreAffinity.NONE;
        }
        return new CoreAffinity(new HashSet<>(node.freeCores()), coresWanted);
    }
}
