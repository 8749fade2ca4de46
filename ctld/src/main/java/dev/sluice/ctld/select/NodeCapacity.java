package dev.sluice.ctld.select;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.NodeHardware;
import java.util.ArrayList;
import java.util.List;

/**
 * What the allocator knows of one node: its configured resources, what is free now, whether
 * it may take work now, and its placement preferences. A value: the scheduler builds new
 * ones as it tentatively places jobs within a pass.
 *
 * <p>CPUs are counted ({@code freeCpus}) and, where allocations name them, cores are tracked
 * one by one ({@code busyCores}): the count keeps allocations recorded before cores were
 * tracked honest, the set says which cores a new job may be given.
 */
public record NodeCapacity(
        String name,
        NodeHardware hardware,
        int freeCpus,
        long freeMemoryMb,
        boolean idle,
        boolean schedulable,
        List<String> features,
        int weight,
        GresPool gres,
        CoreSet busyCores) {

    public NodeCapacity {
        requireNonNull(name, "name is null");
        requireNonNull(hardware, "hardware is null");
        features = List.copyOf(features);
        requireNonNull(gres, "gres is null");
        requireNonNull(busyCores, "busyCores is null");
    }

    /** Cores on the node: its CPUs over its threads per core. */
    public int cores() {
        return Math.max(1, hardware.cpus() / hardware.threadsPerCore());
    }

    /** Cores no running job holds, ascending. */
    public List<Integer> freeCores() {
        List<Integer> free = new ArrayList<>();
        for (int c = 0; c < cores(); c++) {
            if (!busyCores.contains(c)) {
                free.add(c);
            }
        }
        return free;
    }

    /** The same node as if nothing ran on it and it were up: for "could this ever fit?". */
    public NodeCapacity empty() {
        return new NodeCapacity(
                name,
                hardware,
                hardware.cpus(),
                hardware.realMemoryMb(),
                true,
                true,
                features,
                weight,
                GresPool.idle(gres.inventory()),
                CoreSet.EMPTY);
    }

    /** This node after a job gives its share back. */
    public NodeCapacity plus(Allocation.NodeShare share) {
        int cpus = freeCpus + share.cpus();
        return new NodeCapacity(
                name,
                hardware,
                cpus,
                freeMemoryMb + share.memoryMb(),
                cpus >= hardware.cpus(),
                schedulable,
                features,
                weight,
                gres.plus(share.gres(), -1),
                busyCores.without(share.cores()));
    }

    /** This node after giving a job its share. */
    public NodeCapacity minus(Allocation.NodeShare share) {
        return new NodeCapacity(
                name,
                hardware,
                freeCpus - share.cpus(),
                freeMemoryMb - share.memoryMb(),
                false,
                schedulable,
                features,
                weight,
                gres.plus(share.gres(), 1),
                busyCores.with(share.cores()));
    }
}
