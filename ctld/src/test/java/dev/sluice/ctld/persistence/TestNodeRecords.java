package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.NodeTransition;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Node records survive the journal, and a snapshot of dynamic nodes rebuilds them. */
class TestNodeRecords {
    private static final NodeHardware HW = new NodeHardware(8, 1, 2, 4, 1, 64000, 0);

    private static final List<StateRecord> HISTORY = List.of(
            new StateRecord.NodeRegistered(
                    "d1",
                    new NodeEndpoint("h1", "10.0.0.1", 7001),
                    new NodeEquipment(HW, List.of("a100"), "gpu:a100:3"),
                    new DaemonReport(5, "v", new NodeFacts("x86_64", "Linux 6.1.0 #1 SMP", 4)),
                    true,
                    10),
            new StateRecord.NodeCreated(
                    "c1",
                    new NodeEndpoint("c1", "c1", 6818),
                    new NodeEquipment(HW, List.of("x"), "gpu:1"),
                    7,
                    true,
                    11),
            new StateRecord.NodeCreated(
                    "c2", new NodeEndpoint("c2", "c2", 6818), new NodeEquipment(HW, List.of(), ""), 1, false, 12),
            new StateRecord.NodeStateChanged("d1", NodeTransition.DRAIN, "gres/gpu count", "slurm", 13),
            new StateRecord.NodeStateChanged("c1", NodeTransition.RETURN, "", "", 14),
            new StateRecord.NodeDeleted("c2", 15));

    @Test
    void everyNodeRecordRoundTripsThroughTheJournalCodec() {
        long seq = 0;
        for (StateRecord r : HISTORY) {
            assertThat(RecordCodec.decode(RecordCodec.encode(++seq, r))).isEqualTo(r);
        }
    }

    @Test
    void hardwareWrittenWithTheRegistrationProtocolsMessageReadsTheSame() throws Exception {
        // Journals written before the journal had its own hardware message hold node.proto's.
        dev.sluice.protocol.v1.NodeHardware old = dev.sluice.protocol.v1.NodeHardware.newBuilder()
                .setCpus(8)
                .setBoards(1)
                .setSockets(2)
                .setCoresPerSocket(4)
                .setThreadsPerCore(1)
                .setRealMemoryMb(64000)
                .setGres("gpu:a100:3")
                .addFeatures("a100")
                .build();
        var journal = dev.sluice.protocol.v1.journal.JournalNodeHardware.parseFrom(old.toByteArray());
        assertThat(journal.getCpus()).isEqualTo(8);
        assertThat(journal.getCoresPerSocket()).isEqualTo(4);
        assertThat(journal.getRealMemoryMb()).isEqualTo(64000);
        assertThat(journal.getGres()).isEqualTo("gpu:a100:3");
        assertThat(journal.getFeaturesList()).containsExactly("a100");
        assertThat(journal.toByteArray()).isEqualTo(old.toByteArray());
    }

    private static ClusterState fresh() {
        return ClusterFixture.aCluster()
                .nodes(ClusterFixture.aNode("n1").hardware(HW))
                .partitions(names -> List.of(Builders.aPartition("all", names), Builders.aPartition("a100", List.of())))
                .memberships(
                        new DynamicMembership("all", true, Set.of()),
                        new DynamicMembership("a100", false, Set.of("a100")))
                .configured();
    }

    @Test
    void aSnapshotRebuildsDynamicNodesAndTheirPartitions() {
        ClusterState live = fresh();
        long seq = 0;
        for (StateRecord r : HISTORY) {
            live.replay(++seq, r);
        }
        ClusterState restored = fresh();
        for (StateRecord r : live.toRecords()) {
            // Through the codec too: the snapshot is written as journal entries.
            restored.restore(seq, RecordCodec.decode(RecordCodec.encode(seq, r)));
        }
        assertThat(restored.image()).isEqualTo(live.image());
        assertThat(restored.partitions().get(0).nodes()).containsExactly("n1", "d1", "c1");
        assertThat(restored.partitions().get(1).nodes()).containsExactly("d1");
        assertThat(restored.node("d1").gres().describe()).isEqualTo("gpu:a100:3");
        assertThat(restored.node("c1").weight()).isEqualTo(7);
        assertThat(restored.node("d1").facts()).isEqualTo(new NodeFacts("x86_64", "Linux 6.1.0 #1 SMP", 4));
        assertThat(restored.node("c2")).isNull();
    }
}
