package dev.sluice.ctld.state;

import java.util.ArrayList;
import java.util.List;

/** Dynamic nodes joining and leaving partitions; configured members never move. */
final class PartitionMembers {
    private PartitionMembers() {}

    /** The node joins, at the end as Slurm appends it, every partition that takes it. */
    static List<Partition> join(List<Partition> partitions, List<DynamicMembership> memberships, Node node) {
        List<Partition> out = new ArrayList<>(partitions.size());
        for (Partition p : partitions) {
            boolean takes = !p.nodes().contains(node.name())
                    && memberships.stream().anyMatch(m -> m.partition().equals(p.name()) && m.takes(node.features()));
            if (takes) {
                List<String> members = new ArrayList<>(p.nodes());
                members.add(node.name());
                out.add(p.withNodes(members));
            } else {
                out.add(p);
            }
        }
        return List.copyOf(out);
    }

    static List<Partition> leave(List<Partition> partitions, String name) {
        List<Partition> out = new ArrayList<>(partitions.size());
        for (Partition p : partitions) {
            if (p.nodes().contains(name)) {
                List<String> members = new ArrayList<>(p.nodes());
                members.remove(name);
                out.add(p.withNodes(members));
            } else {
                out.add(p);
            }
        }
        return List.copyOf(out);
    }
}
