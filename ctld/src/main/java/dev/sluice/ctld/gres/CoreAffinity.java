package dev.sluice.ctld.gres;

import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * What the node's free cores say about which devices to prefer: a device whose {@code Cores=}
 * (gres.conf) still has enough free cores for the job comes first, lowest index first; then
 * devices with the most free cores near them. As Slurm's cons_tres, which looks for GPUs on the
 * sockets where it finds the job's cores, the aim is a job whose cores and GPUs share a socket.
 *
 * @param freeCores the node's cores no job holds
 * @param coresWanted how many cores the job takes on the node
 */
public record CoreAffinity(Set<Integer> freeCores, int coresWanted) {
    /** No core information: devices in index order, as before cores were tracked. */
    public static final CoreAffinity NONE = new CoreAffinity(Set.of(), 0);

    public CoreAffinity {
        freeCores = Set.copyOf(freeCores);
    }

    /** Free cores near the unit; a unit without {@code Cores=} is near every core. */
    int near(GresUnit unit) {
        if (unit.cores().isEmpty()) {
            return freeCores.size();
        }
        int n = 0;
        for (int c : unit.cores()) {
            if (freeCores.contains(c)) {
                n++;
            }
        }
        return n;
    }

    /** The units in the order they should be given out. */
    List<GresUnit> order(List<GresUnit> units) {
        if (this == NONE || units.stream().allMatch(u -> u.cores().isEmpty())) {
            return units;
        }
        Comparator<GresUnit> byEnough = Comparator.comparing(u -> near(u) < coresWanted);
        Comparator<GresUnit> byNear = Comparator.comparingInt(u -> near(u) >= coresWanted ? 0 : -near(u));
        return units.stream()
                .sorted(byEnough.thenComparing(byNear).thenComparingInt(GresUnit::index))
                .toList();
    }
}
