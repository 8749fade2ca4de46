package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * A {@code NodeSet=} line, resolved to node names (by {@code Nodes=} or by {@code Feature=}).
 *
 * @param feature its {@code Feature=}, kept because dynamic nodes that register later with that
 *     feature join the set (and the partitions that list it)
 */
public record NodeSetConf(String name, List<String> nodeNames, Optional<String> feature, String file, int line) {
    public NodeSetConf {
        requireNonNull(name, "name is null");
        nodeNames = List.copyOf(nodeNames);
        requireNonNull(feature, "feature is null");
        requireNonNull(file, "file is null");
    }

    public NodeSetConf(String name, List<String> nodeNames, String file, int line) {
        this(name, nodeNames, Optional.empty(), file, line);
    }
}
