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

    @Test
    void namesReservedNodesAsSinfoAndScontrolDo() {
        // As Slurm 22.05 showed them with a reservation active (compat scenarios 143-145).
        NodeStatus resv = new NodeStatus(NodeState.IDLE, Set.of(NodeFlag.RESERVED));
        assertThat(resv.compactName()).isEqualTo("resv");
        assertThat(resv.longName()).isEqualTo("reserved");
        assertThat(resv.scontrolName()).isEqualTo("IDLE+RESERVED");
        NodeStatus busy = new NodeStatus(NodeState.MIXED, Set.of(NodeFlag.RESERVED));
        assertThat(busy.compactName()).isEqualTo("mix");
        assertThat(busy.scontrolName()).isEqualTo("MIXED+RESERVED");
        NodeStatus maint = new NodeStatus(NodeState.IDLE, Set.of(NodeFlag.RESERVED, NodeFlag.MAINT));
        assertThat(maint.compactName()).isEqualTo("maint");
        assertThat(maint.longName()).isEqualTo("maint");
        assertThat(maint.scontrolName()).isEqualTo("IDLE+MAINTENANCE+RESERVED");
        NodeStatus maintBusy = new NodeStatus(NodeState.MIXED, Set.of(NodeFlag.RESERVED, NodeFlag.MAINT));
        assertThat(maintBusy.compactName()).isEqualTo("mix$");
        assertThat(maintBusy.longName()).isEqualTo("mixed$");
        assertThat(maintBusy.scontrolName()).isEqualTo("MIXED+MAINTENANCE+RESERVED");
        assertThat(NodeStatus.parse("IDLE", List.of("MAINTENANCE")).has(NodeFlag.MAINT))
                .isTrue();
    }
}
