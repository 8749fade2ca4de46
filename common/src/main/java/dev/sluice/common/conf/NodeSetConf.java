package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** A {@code NodeSet=} line, resolved to node names (by {@code Nodes=} or by {@code Feature=}). */
public record NodeSetConf(String name, List<String> nodeNames, String file, int line) {
    public NodeSetConf {
        requireNonNull(name, "name is null");
        nodeNames = List.copyOf(nodeNames);
        requireNonNull(file, "file is null");
    }
}
