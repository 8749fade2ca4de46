package dev.sluice.common.conf;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code NodeSet=name Nodes=expr} or {@code NodeSet=name Feature=f}: a named group of nodes that
 * partitions may list in {@code Nodes=}. Slurm accepts a node set with neither (it is empty); so do
 * we, with a warning.
 */
final class NodeSets {
    private NodeSets() {}

    static List<NodeSetConf> build(List<List<ConfEntry>> lines, List<NodeConf> nodes, List<String> warnings)
            throws ConfigException {
        Set<String> all = new LinkedHashSet<>();
        nodes.forEach(n -> all.add(n.name()));
        List<NodeSetConf> out = new ArrayList<>();
        for (List<ConfEntry> line : lines) {
            ConfEntry head = line.getFirst();
            ConfEntry nodesEntry = null;
            ConfEntry feature = null;
            for (ConfEntry e : line.subList(1, line.size())) {
                if (e.key().equals("Nodes")) {
                    nodesEntry = e;
                } else if (e.key().equals("Feature")) {
                    feature = e;
                }
            }
            Set<String> members = new LinkedHashSet<>();
            if (nodesEntry != null) {
                members.addAll(PartitionLines.resolveNodes(nodesEntry, all, Map.of(), "NodeSet " + head.value()));
            }
            if (feature != null) {
                String f = feature.value();
                nodes.stream().filter(n -> n.hasFeature(f)).forEach(n -> members.add(n.name()));
            }
            if (nodesEntry == null && feature == null) {
                warnings.add(head.file() + ":" + head.line() + ": NodeSet " + head.value()
                        + " has neither Nodes= nor Feature= and is empty");
            }
            out.add(new NodeSetConf(
                    head.value(),
                    List.copyOf(members),
                    java.util.Optional.ofNullable(feature).map(ConfEntry::value),
                    head.file(),
                    head.line()));
        }
        return out;
    }
}
