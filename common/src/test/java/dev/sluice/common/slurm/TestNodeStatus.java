package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Node state names (the cli's TestNodeStates checks them through the wire adapter). */
class TestNodeStatus {
    @Test
    void readsTheWiresNamesAndLeavesOutUnknownFlags() {
        NodeStatus s = NodeStatus.parse("mix", List.of("drain", "SPARKLING"));
        assertThat(s.base()).isEqualTo(NodeState.MIXED);
        assertThat(s.flags()).containsExactly(NodeFlag.DRAIN);
        assertThat(NodeStatus.parse("", List.of()).base()).isEqualTo(NodeState.UNKNOWN);
    }

    @Test
    void namesAsSinfoAndScontrolDo() {
        NodeStatus draining = new NodeStatus(NodeState.MIXED, Set.of(NodeFlag.DRAIN));
        assertThat(draining.longName()).isEqualTo("draining");
        assertThat(draining.compactName()).isEqualTo("drng");
        NodeStatus silent = new NodeStatus(NodeState.DOWN, Set.of(NodeFlag.NOT_RESPONDING, NodeFlag.DRAIN));
        assertThat(silent.scontrolName()).isEqualTo("DOWN+DRAIN+NOT_RESPONDING");
        assertThat(silent.longName()).isEqualTo("drained*");
        assertThat(silent.longNameAlone()).isEqualTo("drained");
        assertThat(silent.unavailable()).isTrue();
        assertThat(new NodeStatus(NodeState.IDLE, Set.of()).unavailable()).isFalse();
    }
}
