package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Set;

/**
 * Which dynamic nodes (absent from slurm.conf) a partition takes in, as Slurm decides it: a
 * partition with {@code Nodes=ALL}, or one listing a {@code NodeSet} defined by
 * {@code Feature=} that the node has. Configured members are resolved once from the file.
 */
public record DynamicMembership(String partition, boolean all, Set<String> features) {
    public DynamicMembership {
        requireNonNull(partition, "partition is null");
        features = Set.copyOf(features);
    }

    public boolean takes(List<String> nodeFeatures) {
        return all || nodeFeatures.stream().anyMatch(features::contains);
    }
}
