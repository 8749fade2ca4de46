package dev.sluice.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** scontrol reconfigure: new nodes come in, partitions follow the file, dynamic nodes re-join. */
class TestReconfigure {
    private static Node node(String name) {
        return ClusterFixture.aNode(name).build();
    }

    @Test
    void newNodesArriveAndDynamicNodesRejoinTheNewPartitions() {
        ClusterState s = ClusterFixture.aCluster()
                .partitions(names -> List.of(Builders.aPartition("all", names)))
                .memberships(new DynamicMembership("all", true, Set.of()))
                .configured();
        s.replay(
                1,
                new StateRecord.NodeRegistered(
                        "d1",
                        new NodeEndpoint("d1", "127.0.0.1", 7000),
                        new NodeEquipment(NodeHardware.ofCpus(2, 500), List.of("a100"), "gpu:1"),
                        new DaemonReport(1, "v", NodeFacts.NONE),
                        true,
                        1));
        s.replay(2, new StateRecord.NodeStateChanged("n1", NodeTransition.DRAIN, "fan", "root", 2));
        assertThat(s.partitions().get(0).nodes()).containsExactly("n1", "d1");

        s.reconfigure(
                List.of(node("n1"), node("n2")),
                List.of(Builders.aPartition("all", List.of("n1", "n2")), Builders.aPartition("a100", List.of())),
                List.of(
                        new DynamicMembership("all", true, Set.of()),
                        new DynamicMembership("a100", false, Set.of("a100"))));
        assertThat(s.node("n2")).isNotNull();
        assertThat(s.node("n1").admin().drain())
                .as("durable state of known nodes stays")
                .isTrue();
        assertThat(s.partitions().get(0).nodes()).containsExactly("n1", "n2", "d1");
        assertThat(s.partitions().get(1).nodes()).containsExactly("d1");
    }
}
