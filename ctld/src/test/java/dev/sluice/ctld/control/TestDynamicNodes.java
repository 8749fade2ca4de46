package dev.sluice.ctld.control;

import static dev.sluice.ctld.control.NodeControlFixture.HW;
import static dev.sluice.ctld.control.NodeControlFixture.ROOT;
import static dev.sluice.ctld.control.NodeControlFixture.USER;
import static dev.sluice.ctld.control.NodeControlFixture.found;
import static dev.sluice.ctld.control.NodeControlFixture.reg;
import static dev.sluice.ctld.control.NodeControlFixture.registration;
import static dev.sluice.ctld.control.NodeControlFixture.state;
import static dev.sluice.ctld.control.NodeControlFixture.view;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Nodes the configuration does not name: dynamic ones (slurmd -Z) registering with their own GRES
 * and features, nodes made by {@code scontrol create} and brought up by a daemon, and their
 * deletion. Without threads.
 */
class TestDynamicNodes {
    // scontrol create NodeName=c1 Feature=a100 Gres=gpu:1 State=FUTURE
    private static final StateRecord.NodeCreated FUTURE_C1 = new StateRecord.NodeCreated(
            "c1", new NodeEndpoint("c1", "c1", 6818), new NodeEquipment(HW, List.of("a100"), "gpu:1"), 1, true, 0);

    private final ControlHarness harness = new ControlHarness();

    private static NodeControl.Registration dynamic(String name, String gres, List<String> features) {
        return new NodeControl.Registration(
                name,
                new NodeEndpoint(name, "127.0.0.1", 7001),
                new NodeEquipment(new NodeHardware(8, 1, 8, 1, 1, 64000, 0), features, gres),
                new DaemonReport(1, "v", NodeFacts.NONE),
                true,
                Set.of(),
                Optional.of(new NodeControl.Found(
                        new NodeHardware(8, 1, 8, 1, 1, 64000, 0), Map.of("gpu", GresSpec.parseCount("2", "")))));
    }

    @Test
    void aDynamicNodeBringsItsGresAndFeaturesAndJoinsMatchingPartitions() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(30, NodePolicy.DEFAULT);
        assertThatThrownBy(() -> nodes.register(s, reg("stranger", Optional.empty()), 1))
                .hasMessage("Node stranger not found in the configuration");
        harness.apply(s, nodes.register(s, dynamic("d1", "gpu:2", List.of("a100")), 10));
        harness.apply(s, nodes.register(s, dynamic("d2", "gpu:2", List.of("h100")), 10));
        assertThat(s.node("d1").gres().describe()).isEqualTo("gpu:2");
        assertThat(s.node("d1").features()).containsExactly("a100");
        assertThat(s.node("d1").dynamic()).isTrue();
        assertThat(view(s, "d1").baseState()).isEqualTo(NodeState.IDLE);
        assertThat(s.partitions().get(0).nodes()).containsExactly("n1", "d1", "d2");
        assertThat(s.partitions().get(1).nodes()).containsExactly("d1");
        // Its own --conf Gres=gpu:3 against two found devices: drained.
        harness.apply(s, nodes.register(s, dynamic("d3", "gpu:3", List.of()), 11));
        assertThat(s.node("d3").admin().reason()).isEqualTo("gres/gpu count reported lower than configured (2 < 3)");
    }

    @Test
    void createAndDeleteDynamicNodes() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(30, NodePolicy.DEFAULT);
        StateRecord.NodeCreated wanted = FUTURE_C1;
        assertThatThrownBy(() -> nodes.create(s, USER, List.of(wanted), 5)).hasMessage("Invalid user id");
        harness.apply(s, nodes.create(s, ROOT, List.of(wanted), 5));
        assertThat(view(s, "c1").baseState()).isEqualTo(NodeState.FUTURE);
        assertThat(s.partitions().get(1).nodes()).containsExactly("c1");
        assertThatThrownBy(() -> nodes.create(s, ROOT, List.of(wanted), 6)).hasMessage("Duplicate node name c1");

        assertThatThrownBy(() -> nodes.delete(s, ROOT, List.of("n1"), 7))
                .hasMessage("Can't delete non-dynamic node n1");
        harness.apply(s, nodes.register(s, dynamic("d1", "gpu:2", List.of()), 8));
        harness.replay(s, new StateRecord.JobSubmitted(1, Builders.aJob().build(), "all", 60, 9));
        harness.replay(
                s,
                new StateRecord.JobStarted(
                        1, new Allocation(List.of(Allocation.NodeShare.of("d1", 1, 0, 1))), "all", 60, 9));
        assertThatThrownBy(() -> nodes.delete(s, ROOT, List.of("d1"), 10)).hasMessage("Requested nodes are busy");
        harness.replay(s, StateRecord.JobEnded.unrequested(1, JobState.COMPLETED, 0, JobReason.NONE, 11));
        harness.apply(s, nodes.delete(s, ROOT, List.of("d1", "c1"), 12));
        assertThat(s.node("d1")).isNull();
        assertThat(s.partitions().get(0).nodes()).containsExactly("n1");
        assertThat(s.partitions().get(1).nodes()).isEmpty();
    }

    @Test
    void aDaemonStartedWithDashNForAFutureNodeBringsItUpAsCreated() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(30, NodePolicy.DEFAULT);
        harness.apply(s, nodes.create(s, ROOT, List.of(FUTURE_C1), 5));
        assertThat(view(s, "c1").baseState()).isEqualTo(NodeState.FUTURE);
        // slurmd -N c1 without a node line: it reports the machine it found, not a dynamic node.
        NodeHardware machine = new NodeHardware(16, 1, 2, 8, 1, 32000, 0);
        NodeControl.Registration daemon = registration(
                "c1",
                "10.0.0.7",
                7002,
                new NodeEquipment(machine, List.of(), ""),
                NodeFacts.NONE,
                found(16, 32000, Map.of()));
        harness.apply(s, nodes.register(s, daemon, 10));
        Node c1 = s.node("c1");
        assertThat(view(s, "c1").baseState()).isEqualTo(NodeState.IDLE);
        assertThat(c1.admin().future()).isFalse();
        assertThat(c1.endpoint().addr()).isEqualTo("10.0.0.7");
        assertThat(c1.hardware()).as("as created, not as found").isEqualTo(HW);
        assertThat(c1.features()).containsExactly("a100");
        assertThat(c1.gres().describe()).isEqualTo("gpu:1");
        assertThat(c1.dynamic()).as("still deletable").isTrue();
        assertThat(s.partitions().get(1).nodes()).containsExactly("c1");
        // Registering again changes nothing; less than it was created with is drained.
        assertThat(nodes.register(s, daemon, 11).records()).isEmpty();
        NodeControl.Registration small = registration(
                "c1",
                "10.0.0.7",
                7002,
                new NodeEquipment(machine, List.of(), ""),
                NodeFacts.NONE,
                found(2, 32000, Map.of()));
        harness.apply(s, nodes.register(s, small, 12));
        assertThat(s.node("c1").admin().drain()).isTrue();
        harness.apply(s, nodes.delete(s, ROOT, List.of("c1"), 13));
        assertThat(s.node("c1")).isNull();
    }
}
