package dev.sluice.ctld.control;

import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.NodeView;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The node control tests' cluster: n1 of {@link #HW} with three GPUs in partition all, which
 * every dynamic node joins, and partition gpu, which dynamic nodes with feature a100 join; and
 * the registrations its daemons send.
 */
final class NodeControlFixture {
    static final Caller ROOT = Caller.of(0, 0, "root");
    static final Caller USER = Caller.of(1000, 1000, "alice");
    static final NodeHardware HW = new NodeHardware(4, 1, 1, 4, 1, 8000, 0);

    private NodeControlFixture() {}

    static ClusterState state() {
        return ClusterFixture.aCluster()
                .nodes(ClusterFixture.aNode("n1").hardware(HW).gres("gpu:3"))
                .partitions(names -> List.of(Builders.aPartition("all", names), Builders.aPartition("gpu", List.of())))
                .memberships(
                        new DynamicMembership("all", true, Set.of()),
                        new DynamicMembership("gpu", false, Set.of("a100")))
                .configured();
    }

    /** A configured node's daemon at 127.0.0.1:7000, having found {@code found}. */
    static NodeControl.Registration reg(String name, Optional<NodeControl.Found> found) {
        return registration(name, "127.0.0.1", 7000, new NodeEquipment(HW, List.of(), ""), NodeFacts.NONE, found);
    }

    /** A daemon that is not dynamic (slurmd without -Z). */
    static NodeControl.Registration registration(
            String name,
            String addr,
            int port,
            NodeEquipment equipment,
            NodeFacts facts,
            Optional<NodeControl.Found> found) {
        return new NodeControl.Registration(
                name,
                new NodeEndpoint(name, addr, port),
                equipment,
                new DaemonReport(1, "v", facts),
                false,
                Set.of(),
                found);
    }

    static Optional<NodeControl.Found> found(int cpus, long memory, Map<String, Long> gres) {
        return Optional.of(new NodeControl.Found(new NodeHardware(cpus, 1, 1, cpus, 1, memory, 0), gres));
    }

    static NodeView view(ClusterState s, String name) {
        return s.view(s.node(name));
    }
}
