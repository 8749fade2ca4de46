package dev.sluice.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.common.slurm.NodeStatus;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The reconcilers' reading of a node's state: Slurm's base state plus flags, typed. */
class TestSluiceClusterNode {
    private static SluiceCluster.Node node(NodeState base, NodeFlag... flags) {
        return new SluiceCluster.Node("n1", new NodeStatus(base, Set.of(flags)), "");
    }

    @Test
    void drainedIsTheDrainFlagOnAnyBaseState() {
        assertThat(node(NodeState.MIXED, NodeFlag.DRAIN).drained()).isTrue();
        assertThat(node(NodeState.IDLE, NodeFlag.DRAIN).idle()).isFalse();
        assertThat(node(NodeState.IDLE, NodeFlag.RESERVED).drained()).isFalse();
    }

    @Test
    void downIsTheDownBaseStateOrNotResponding() {
        assertThat(node(NodeState.DOWN).down()).isTrue();
        assertThat(node(NodeState.IDLE, NodeFlag.NOT_RESPONDING).down()).isTrue();
        assertThat(node(NodeState.IDLE, NodeFlag.NOT_RESPONDING).idle()).isFalse();
        assertThat(node(NodeState.IDLE, NodeFlag.POWERED_DOWN).down()).isFalse();
    }

    @Test
    void idleIsTheIdleBaseStateInService() {
        assertThat(node(NodeState.IDLE).idle()).isTrue();
        assertThat(node(NodeState.IDLE, NodeFlag.RESERVED).idle()).isTrue();
        assertThat(node(NodeState.MIXED).idle()).isFalse();
    }
}
