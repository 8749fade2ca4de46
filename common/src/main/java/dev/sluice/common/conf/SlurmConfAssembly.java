package dev.sluice.common.conf;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the lines a {@link SlurmConfReader} collected into a {@link SlurmConf}: the value
 * checks, then the controller hosts, nodes, node sets and partitions resolved against each
 * other, in the order Slurm needs them (node sets and DownNodes refer to nodes, partitions to
 * both). Kept apart from {@link SlurmConf}, which is only the typed accessors of the result.
 */
final class SlurmConfAssembly {
    private SlurmConfAssembly() {}

    static SlurmConf build(SlurmConfReader.Collected c) throws ConfigException {
        ValueRules.check(c);
        String cluster = c.entry("ClusterName").map(ConfEntry::value).orElse("");
        if (cluster.isBlank()) {
            throw new ConfigException(c.mainFile, 0, "ClusterName", "ClusterName needs to be specified");
        }
        List<ControlHost> hosts = ControlHosts.resolve(c);
        int slurmdPort =
                (int) c.entry("SlurmdPort").map(ConfValues::num).orElse(6818L).longValue();
        List<NodeConf> nodes = NodeLines.build(c.linesOf("NodeName"), slurmdPort, c.warnings);
        List<NodeSetConf> sets = NodeSets.build(c.linesOf("NodeSet"), nodes, c.warnings);
        nodes = DownNodes.apply(c.linesOf("DownNodes"), nodes, c.warnings);
        Map<String, NodeSetConf> byName = new TreeMap<>();
        sets.forEach(s -> byName.put(s.name(), s));
        List<PartitionConf> parts = PartitionLines.build(c.linesOf("PartitionName"), nodes, byName, c.warnings);
        return new SlurmConf(c, hosts, nodes, parts, sets);
    }
}
