package dev.sluice.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.NodeStateRequest;
import dev.sluice.common.slurm.PartitionState;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestWireStates {
    @Test
    void everyPartitionStateCrossesTheWireAndBack() {
        for (PartitionState s : PartitionState.values()) {
            assertThat(WireStates.partitionState(WireStates.toWire(s))).contains(s);
        }
        // A controller that never set it: Slurm's default.
        assertThat(WireStates.partitionState(dev.sluice.protocol.v1.PartitionState.PARTITION_STATE_UNSPECIFIED))
                .contains(PartitionState.UP);
        assertThat(WireStates.partitionState(dev.sluice.protocol.v1.PartitionState.UNRECOGNIZED))
                .isEmpty();
    }

    @Test
    void everyNodeStateRequestCrossesTheWireAndBack() {
        for (NodeStateRequest s : NodeStateRequest.values()) {
            assertThat(WireStates.nodeStateRequest(WireStates.toWire(s))).contains(s);
        }
        assertThat(WireStates.nodeStateRequest(dev.sluice.protocol.v1.NodeStateRequest.NODE_STATE_REQUEST_UNSPECIFIED))
                .isEqualTo(Optional.empty());
        // Every wire value but "none" names one of common's: nothing is left unmapped.
        for (var wire : dev.sluice.protocol.v1.NodeStateRequest.values()) {
            if (wire != dev.sluice.protocol.v1.NodeStateRequest.NODE_STATE_REQUEST_UNSPECIFIED
                    && wire != dev.sluice.protocol.v1.NodeStateRequest.UNRECOGNIZED) {
                assertThat(WireStates.nodeStateRequest(wire)).isPresent();
            }
        }
    }
}
