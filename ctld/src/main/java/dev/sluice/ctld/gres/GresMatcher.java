package dev.sluice.ctld.gres;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Chooses GRES units on one node for one job: lowest free indices first, so the same pool and
 * request always give the same devices; where gres.conf binds devices to cores ({@code Cores=}),
 * devices near enough free cores come first ({@link CoreAffinity}). Whole GPUs and MPS/shard shares of a GPU exclude each
 * other; a shard request is served by exactly one GPU, as in Slurm, and so is an MPS request
 * that one GPU's share can hold (a larger one spreads over several).
 *
 * <p>Pure: no state; the answer depends only on the arguments.
 */
public final class GresMatcher {
    private GresMatcher() {}

    /**
     * @param tasks tasks this node runs (for {@code --gpus-per-task})
     * @param extraGpus GPUs this node contributes to a per-job {@code --gpus} count
     * @param totalsOnly judge against totals instead of single GPUs (the "could it ever fit"
     *     check: Slurm accepts a shard request larger than one GPU and leaves it pending)
     * @return the grants, or null when the node cannot serve the demand now
     */
    public static List<GresGrant> match(
            GresPool pool, GresDemand demand, int tasks, long extraGpus, boolean totalsOnly) {
        return match(pool, demand, tasks, extraGpus, totalsOnly, CoreAffinity.NONE);
    }

    /** {@link #match} preferring devices near free cores. */
    public static List<GresGrant> match(
            GresPool pool, GresDemand demand, int tasks, long extraGpus, boolean totalsOnly, CoreAffinity affinity) {
        List<GresGrant> grants = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        List<GresDemand.Item> items = new ArrayList<>(demand.perNode());
        if (demand.gpusPerTask() > 0) {
            items.add(new GresDemand.Item("gpu", demand.gpuTypePerTask(), demand.gpusPerTask() * tasks));
        }
        if (extraGpus > 0) {
            items.add(new GresDemand.Item("gpu", demand.gpuTypePerJob(), extraGpus));
        }
        for (GresDemand.Item item : items) {
            GresGrant grant = GresUnit.sharesGpu(item.name())
                    ? share(pool, item, totalsOnly, affinity)
                    : devices(pool, item, taken, affinity);
            if (grant == null) {
                return null;
            }
            grants.add(grant);
        }
        return merge(grants);
    }

    /** How many more GPUs of this type the node could give beyond {@code already}. */
    public static long freeGpus(GresPool pool, String type) {
        long n = 0;
        for (GresUnit u : pool.inventory().named("gpu")) {
            if (typeMatches(u, type) && pool.free(u) > 0 && !pool.gpuBusy(u.index(), false)) {
                n++;
            }
        }
        return n;
    }

    private static GresGrant devices(GresPool pool, GresDemand.Item item, Set<String> taken, CoreAffinity affinity) {
        List<GresUnit> units = affinity.order(pool.inventory().named(item.name()).stream()
                .filter(u -> typeMatches(u, item.type()))
                .toList());
        if (units.size() == 1 && units.get(0).file().isEmpty() && !item.name().equals("gpu")) {
            GresUnit u = units.get(0);
            return pool.free(u) >= item.count()
                    ? new GresGrant(item.name(), u.type(), List.of(u.index()), item.count())
                    : null;
        }
        List<Integer> chosen = new ArrayList<>();
        String type = "";
        for (GresUnit u : units) {
            if (chosen.size() == item.count()) {
                break;
            }
            boolean blocked = item.name().equals("gpu") && pool.gpuBusy(u.index(), false);
            if (pool.free(u) > 0 && !blocked && taken.add(u.key())) {
                chosen.add(u.index());
                type = u.type();
            }
        }
        chosen.sort(Integer::compare);
        return chosen.size() == item.count() ? new GresGrant(item.name(), type, chosen, item.count()) : null;
    }

    private static GresGrant share(GresPool pool, GresDemand.Item item, boolean totalsOnly, CoreAffinity affinity) {
        List<GresUnit> units = pool.inventory().named(item.name());
        if (totalsOnly) {
            long total = units.stream().mapToLong(GresUnit::capacity).sum();
            return total >= item.count() && !units.isEmpty()
                    ? new GresGrant(item.name(), "", List.of(units.get(0).index()), item.count())
                    : null;
        }
        for (GresUnit u : affinity.order(units)) {
            if (pool.free(u) >= item.count() && !pool.gpuBusy(u.index(), true)) {
                return new GresGrant(item.name(), "", List.of(u.index()), item.count());
            }
        }
        // Slurm 22.05 runs an MPS request larger than any one GPU's share (mps:150 on 100 a GPU)
        // and keeps such a shard request pending.
        return item.name().equals("mps") ? spread(pool, units, item) : null;
    }

    /**
     * An MPS request over several GPUs, lowest first: every GPU but the last is taken whole (no
     * other job uses its share), the last for what is left, so that the amount on each follows
     * from the indices and the inventory alone ({@link GresPool#plus}).
     */
    private static GresGrant spread(GresPool pool, List<GresUnit> units, GresDemand.Item item) {
        List<Integer> chosen = new ArrayList<>();
        long left = item.count();
        for (GresUnit u : units) {
            if (pool.gpuBusy(u.index(), true)) {
                continue;
            }
            if (left > u.capacity() && pool.used(u) == 0) {
                chosen.add(u.index());
                left -= u.capacity();
            } else if (left <= u.capacity() && pool.free(u) >= left) {
                chosen.add(u.index());
                return new GresGrant(item.name(), "", chosen, item.count());
            }
        }
        return null;
    }

    private static boolean typeMatches(GresUnit unit, String type) {
        return type.isEmpty() || unit.type().equalsIgnoreCase(type);
    }

    /** One grant per name: {@code gpu} from --gres and --gpus-per-task together. */
    private static List<GresGrant> merge(List<GresGrant> grants) {
        List<GresGrant> out = new ArrayList<>();
        for (GresGrant g : grants) {
            int at = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).name().equals(g.name()) && g.name().equals("gpu")) {
                    at = i;
                }
            }
            if (at < 0) {
                out.add(g);
            } else {
                GresGrant prev = out.get(at);
                List<Integer> idx = new ArrayList<>(prev.indices());
                idx.addAll(g.indices());
                idx.sort(Integer::compare);
                out.set(
                        at,
                        new GresGrant(
                                "gpu", prev.type().equals(g.type()) ? prev.type() : "", idx, prev.count() + g.count()));
            }
        }
        return out;
    }
}
