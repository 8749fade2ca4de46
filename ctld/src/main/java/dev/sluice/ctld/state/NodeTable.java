package dev.sluice.ctld.state;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.state.StateRecord.NodeCreated;
import dev.sluice.ctld.state.StateRecord.NodeRegistered;
import dev.sluice.ctld.state.StateRecord.NodeStateChanged;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The durable node table and the partitions its nodes belong to. Kept apart from {@link
 * ClusterState} because node records and partition membership change together and touch no
 * job: a dynamic node joining or leaving moves partition members, nothing else. Owned by the
 * controller thread like its owner; not thread-safe.
 */
final class NodeTable {
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private List<Partition> partitions;
    private List<DynamicMembership> memberships;

    NodeTable(Collection<Node> configuredNodes, List<Partition> partitions, List<DynamicMembership> memberships) {
        for (Node node : configuredNodes) {
            nodes.put(node.name(), node);
        }
        this.partitions = List.copyOf(partitions);
        this.memberships = List.copyOf(memberships);
    }

    Node get(String name) {
        return nodes.get(name);
    }

    Collection<Node> values() {
        return nodes.values();
    }

    int size() {
        return nodes.size();
    }

    List<Partition> partitions() {
        return partitions;
    }

    void created(NodeCreated r) {
        if (nodes.containsKey(r.name())) {
            throw new IllegalStateException("journal creates node " + r.name() + " twice");
        }
        Node created = Node.created(
                r.name(),
                r.endpoint(),
                r.equipment().hardware(),
                r.equipment().features(),
                inventory(r.equipment().gres()),
                r.weight());
        if (r.future()) {
            created = created.withAdmin(NodeAdmin.FUTURE);
        }
        nodes.put(r.name(), created);
        joinPartitions(created);
    }

    void deleted(String name) {
        require(name);
        nodes.remove(name);
        leavePartitions(name);
    }

    void stateChanged(NodeStateChanged r) {
        nodes.put(r.name(), NodeLifecycle.apply(require(r.name()), r.transition(), r.reason(), r.user(), r.time()));
    }

    void registered(NodeRegistered r) {
        Node existing = nodes.get(r.name());
        Node base = existing != null
                ? existing
                : Node.configured(
                        r.name(),
                        r.endpoint(),
                        r.equipment().hardware(),
                        r.equipment().features(),
                        inventory(r.equipment().gres()),
                        1);
        boolean ownConfig = r.dynamic()
                && (!r.equipment().features().isEmpty() || !r.equipment().gres().isEmpty());
        if (existing != null && ownConfig) {
            base = base.withDynamicConfig(
                    r.equipment().features(), inventory(r.equipment().gres()));
        }
        Node node = base.withRegistration(r.endpoint(), r.equipment().hardware(), r.dynamic(), r.daemon());
        nodes.put(r.name(), node);
        if (existing == null || (ownConfig && !existing.features().equals(node.features()))) {
            leavePartitions(r.name());
            joinPartitions(node);
        }
    }

    /** The partition of that name becomes this one. */
    void updatePartition(Partition changed) {
        List<Partition> out = new ArrayList<>(partitions.size());
        for (Partition p : partitions) {
            out.add(p.name().equals(changed.name()) ? changed : p);
        }
        partitions = List.copyOf(out);
    }

    /** New nodes are added, partitions replaced, and dynamic nodes join them by the new rules. */
    void reconfigure(
            Collection<Node> configuredNodes, List<Partition> newPartitions, List<DynamicMembership> newMemberships) {
        for (Node node : configuredNodes) {
            nodes.putIfAbsent(node.name(), node);
        }
        partitions = List.copyOf(newPartitions);
        memberships = List.copyOf(newMemberships);
        for (Node node : nodes.values()) {
            if (node.dynamic()) {
                joinPartitions(node);
            }
        }
    }

    Node require(String name) {
        Node node = nodes.get(name);
        if (node == null) {
            throw new IllegalStateException("journal refers to unknown node " + name);
        }
        return node;
    }

    private static GresInventory inventory(String gres) {
        return gres.isEmpty() ? GresInventory.NONE : GresInventory.of(GresSpec.parseNodeList(gres), List.of());
    }

    private void joinPartitions(Node node) {
        partitions = PartitionMembers.join(partitions, memberships, node);
    }

    private void leavePartitions(String name) {
        partitions = PartitionMembers.leave(partitions, name);
    }
}
