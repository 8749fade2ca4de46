package dev.sluice.ctld.gres;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A node's GRES inventory and what running jobs use of it. Immutable. */
public record GresPool(GresInventory inventory, Map<String, Long> used) {
    public GresPool {
        requireNonNull(inventory, "inventory is null");
        used = Map.copyOf(used);
    }

    public static GresPool idle(GresInventory inventory) {
        return new GresPool(inventory, Map.of());
    }

    public long used(GresUnit unit) {
        return used.getOrDefault(unit.key(), 0L);
    }

    public long free(GresUnit unit) {
        return unit.consumable() ? unit.capacity() - used(unit) : unit.capacity();
    }

    /** Is GPU {@code index} held by some job, whole or as MPS/shard share? */
    boolean gpuBusy(int index, boolean asShare) {
        for (GresUnit u : inventory.units()) {
            if (u.index() != index || used(u) == 0) {
                continue;
            }
            if (asShare ? u.name().equals("gpu") : GresUnit.sharesGpu(u.name())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether these very grants (the same devices) fit beside what is used: no unit beyond its
     * capacity, no GPU held both whole and as MPS or shards.
     */
    public boolean canTake(List<GresGrant> grants) {
        GresPool after = plus(grants, 1);
        for (GresUnit u : inventory.units()) {
            if (after.used(u) == 0) {
                continue;
            }
            if (u.consumable() && after.used(u) > u.capacity()) {
                return false;
            }
            boolean whole = u.name().equals("gpu");
            if ((whole || GresUnit.sharesGpu(u.name())) && after.gpuBusy(u.index(), !whole)) {
                return false;
            }
        }
        return true;
    }

    public GresPool plus(List<GresGrant> grants, int sign) {
        if (grants.isEmpty()) {
            return this;
        }
        Map<String, Long> next = new HashMap<>(used);
        for (GresGrant g : grants) {
            if (GresUnit.sharesGpu(g.name()) && g.indices().size() > 1) {
                // Spread over GPUs (GresMatcher): all but the last whole, the last the rest.
                long left = g.count();
                for (int i : g.indices()) {
                    long capacity = inventory.named(g.name()).stream()
                            .filter(u -> u.index() == i)
                            .mapToLong(GresUnit::capacity)
                            .findFirst()
                            .orElse(left);
                    long amount = Math.min(capacity, left);
                    next.merge(g.name() + "#" + i, sign * amount, Long::sum);
                    left -= amount;
                }
            } else if (g.name().equals("gpu") || g.indices().size() != 1) {
                g.indices().forEach(i -> next.merge(g.name() + "#" + i, (long) sign, Long::sum));
            } else {
                next.merge(g.name() + "#" + g.indices().get(0), sign * g.count(), Long::sum);
            }
        }
        next.values().removeIf(v -> v == 0);
        return new GresPool(inventory, next);
    }
}
