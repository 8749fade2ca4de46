package dev.sluice.ctld.select;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.NodeHardware;
import java.util.List;

/**
 * What the allocator knows of one node: its configured resources, what is free now, whether
 * it may take work now, and its placement preferences. A value: the scheduler builds new
 * ones as it tentatively places jobs within a pass.
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
        GresPool gres) {

    public NodeCapacity {
        requireNonNull(name, "name is null");
        requireNonNull(hardware, "hardware is null");
        features = List.copyOf(features);
        requireNonNull(gres, "gres is null");
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
                GresPool.idle(gres.inventory()));
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
                gres.plus(share.gres(), -1));
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
                gres.plus(share.gres(), 1));
    }
}
