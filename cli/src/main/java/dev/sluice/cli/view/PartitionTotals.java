package dev.sluice.cli.view;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A partition's totals as slurmctld counts them for {@code scontrol show partition} and the REST
 * API: CPUs, nodes, memory, and its TRES (cpu, mem, node, billing, then each GRES of its nodes).
 */
public record PartitionTotals(long cpus, long nodes, long memoryMb, Tres tres) {

    /** @param nodesByName the cluster's nodes (the partition's are looked up by name) */
    public static PartitionTotals of(PartitionInfo p, Map<String, NodeInfo> nodesByName) {
        List<NodeInfo> nodes = new ArrayList<>();
        List<String> names = p.getNodeNamesCount() > 0 ? p.getNodeNamesList() : expand(p.getNodes());
        for (String name : names) {
            NodeInfo n = nodesByName.get(name);
            if (n != null) {
                nodes.add(n);
            }
        }
        long cpus = p.getTotalCpus() > 0
                ? Integer.toUnsignedLong(p.getTotalCpus())
                : nodes.stream()
                        .mapToLong(n -> Integer.toUnsignedLong(n.getCpus()))
                        .sum();
        long nodeCount = p.getTotalNodes() > 0 ? Integer.toUnsignedLong(p.getTotalNodes()) : names.size();
        long mem = nodes.stream().mapToLong(NodeInfo::getRealMemoryMb).sum();
        Tres tres = Tres.empty()
                .with("cpu", cpus)
                .with("mem", mem)
                .with("node", nodeCount)
                .with("billing", cpus)
                .plus(nodeGres(nodes));
        return new PartitionTotals(cpus, nodeCount, mem, tres);
    }

    /** The node names a partition lists, expanded. */
    public static List<String> names(PartitionInfo p) {
        return p.getNodeNamesCount() > 0 ? p.getNodeNamesList() : expand(p.getNodes());
    }

    /** The GRES of the partition's nodes, summed name by name from their CfgTRES. */
    private static Tres nodeGres(List<NodeInfo> nodes) {
        Map<String, Long> totals = new TreeMap<>();
        for (NodeInfo n : nodes) {
            Tres.parse(n.getCfgTres()).asMap().forEach((k, v) -> {
                if (k.startsWith("gres/")) {
                    totals.merge(k, v, Long::sum);
                }
            });
        }
        return Tres.of(totals);
    }

    private static List<String> expand(String nodes) {
        if (nodes.isBlank()) {
            return List.of();
        }
        try {
            return HostList.expand(nodes);
        } catch (IllegalArgumentException e) {
            return List.of();
        }
    }
}
