package dev.sluice.ctld.select;

import static java.util.Objects.requireNonNull;

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
        int weight) {

    public NodeCapacity {
        requireNonNull(name, "name is null");
        requireNonNull(hardware, "hardware is null");
        features = List.copyOf(features);
    }

    /** The same node as if nothing ran on it and it were up: for "could this ever fit?". */
    public NodeCapacity empty() {
        return new NodeCapacity(name, hardware, hardware.cpus(), hardware.realMemoryMb(), true, true, features, weight);
    }

    /** This node after giving {@code cpus} and {@code memoryMb} to a job. */
    public NodeCapacity minus(int cpus, long memoryMb) {
        return new NodeCapacity(
                name, hardware, freeCpus - cpus, freeMemoryMb - memoryMb, false, schedulable, features, weight);
    }
}
