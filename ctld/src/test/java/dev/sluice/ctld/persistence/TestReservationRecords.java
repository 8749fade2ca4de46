package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reservations survive a restart: their records round-trip the journal, and snapshots keep them. */
class TestReservationRecords {
    private static final Reservation R = new Reservation(
            "maint",
            7,
            1_000_000,
            1_003_600,
            Reservation.Holding.whole(List.of("n1", "n2"), "p", 8),
            new Reservation.Access(List.of("alice"), true, List.of("physics")),
            Set.of(ReservationFlag.MAINT, ReservationFlag.DAILY, ReservationFlag.SPEC_NODES));

    @Test
    void recordsRoundTripTheJournalFormat() {
        StateRecord saved = new StateRecord.ReservationSaved(R, 999);
        assertThat(RecordCodec.decode(RecordCodec.encode(5, saved))).isEqualTo(saved);
        // A partial-node one keeps its cores, node by node (CoreCnt= with Nodes=).
        Reservation partial = new Reservation(
                "half",
                9,
                1_000_000,
                1_003_600,
                new Reservation.Holding(
                        List.of("n1", "n2"), "p", 5, java.util.Map.of("n1", List.of(0, 1, 2, 3), "n2", List.of(0))),
                new Reservation.Access(List.of("alice"), false, List.of()),
                Set.of(ReservationFlag.SPEC_NODES));
        StateRecord savedPartial = new StateRecord.ReservationSaved(partial, 999);
        assertThat(RecordCodec.decode(RecordCodec.encode(5, savedPartial))).isEqualTo(savedPartial);
        // NodeCnt=1 CoreCnt=2 beside a job on n1 (compat 291): n1's free core is held beside its
        // node n2, and stays so, counted in CoreCnt= only.
        Reservation passed = new Reservation(
                "counted",
                10,
                1_000_000,
                1_003_600,
                new Reservation.Holding(List.of("n2"), "p", 3, java.util.Map.of("n1", List.of(3), "n2", List.of(0, 1))),
                new Reservation.Access(List.of("alice"), false, List.of()),
                Set.of());
        StateRecord savedPassed = new StateRecord.ReservationSaved(passed, 999);
        StateRecord back = RecordCodec.decode(RecordCodec.encode(5, savedPassed));
        assertThat(back).isEqualTo(savedPassed);
        assertThat(((StateRecord.ReservationSaved) back).reservation().coresOnNodes())
                .isEqualTo(2);
        StateRecord deleted = new StateRecord.ReservationDeleted("maint", 1000);
        assertThat(RecordCodec.decode(RecordCodec.encode(6, deleted))).isEqualTo(deleted);
    }

    @Test
    void theJournalKeepsItsOwnRecordAndStillReadsTheCommandsShapeWrittenBefore()
            throws com.google.protobuf.InvalidProtocolBufferException {
        StateRecord saved = new StateRecord.ReservationSaved(R, 999);
        var entry = RecordCodec.encode(5, saved);
        assertThat(entry.getReservationSaved().hasReservation()).isFalse();
        assertThat(entry.getReservationSaved().getSaved().getFlagsList()).contains("MAINT", "DAILY");
        var before = entry.toBuilder()
                .setReservationSaved(dev.sluice.protocol.v1.journal.ReservationSavedRecord.newBuilder()
                        .setReservation(dev.sluice.protocol.v1.journal.JournalLegacyReservation.parseFrom(
                                dev.sluice.ctld.wire.ReservationWire.toWire(R, true)
                                        .toByteString())))
                .build();
        assertThat(RecordCodec.decode(before)).isEqualTo(saved);
    }

    @Test
    void aSnapshotRebuildsTheReservationsAndReplayedDeletesStayDeleted() {
        ClusterState before = fresh();
        before.replay(1, new StateRecord.ReservationSaved(R, 999));
        Reservation other = new Reservation(
                "gone",
                8,
                1_000_000,
                1_000_060,
                Reservation.Holding.whole(List.of("n2"), "", 4),
                new Reservation.Access(List.of("bob"), false, List.of()),
                Set.of());
        before.replay(2, new StateRecord.ReservationSaved(other, 999));
        before.replay(3, new StateRecord.ReservationDeleted("gone", 1000));

        ClusterState after = fresh();
        long seq = 0;
        for (StateRecord r : before.toRecords()) {
            after.restore(++seq, RecordCodec.decode(RecordCodec.encode(seq, r)));
        }
        assertThat(after.reservations().all()).containsExactly(R);
    }

    /** An ANY_NODES reservation of licenses and no node. */
    private static final Reservation LICENSED = new Reservation(
            "lic",
            11,
            1_000_000,
            1_003_600,
            new Reservation.Holding(List.of(), "", 0, java.util.Map.of(), Licenses.parse("bar,foo:2")),
            new Reservation.Access(List.of("alice"), false, List.of()),
            Set.of(ReservationFlag.ANY_NODES));

    @Test
    void licensesSurviveTheJournalAndASnapshot() {
        StateRecord saved = new StateRecord.ReservationSaved(LICENSED, 999);
        var entry = RecordCodec.encode(5, saved);
        assertThat(entry.getReservationSaved().getSaved().getLicenses()).isEqualTo("bar,foo:2");
        assertThat(RecordCodec.decode(entry)).isEqualTo(saved);

        ClusterState before = fresh();
        before.replay(1, saved);
        ClusterState after = fresh();
        long seq = 0;
        for (StateRecord r : before.toRecords()) {
            after.restore(++seq, RecordCodec.decode(RecordCodec.encode(seq, r)));
        }
        Reservation back = after.reservations().byName().get("lic");
        assertThat(back).isEqualTo(LICENSED);
        assertThat(back.licenses().count("foo")).isEqualTo(2);
        assertThat(back.licenses().toString()).isEqualTo("bar,foo:2");
    }

    @Test
    void aRecordWrittenBeforeReservationsHeldLicensesHoldsNone() {
        var entry = RecordCodec.encode(5, new StateRecord.ReservationSaved(LICENSED, 999));
        // What an older binary wrote: the same record without field 13.
        var older = entry.toBuilder()
                .setReservationSaved(entry.getReservationSaved().toBuilder()
                        .setSaved(entry.getReservationSaved().getSaved().toBuilder()
                                .clearLicenses()))
                .build();
        StateRecord decoded = RecordCodec.decode(older);
        assertThat(((StateRecord.ReservationSaved) decoded).reservation().licenses())
                .isEqualTo(Licenses.NONE);
        assertThat(RecordCodec.decode(RecordCodec.encode(5, new StateRecord.ReservationSaved(R, 999))))
                .isEqualTo(new StateRecord.ReservationSaved(R, 999));
    }

    private static ClusterState fresh() {
        return ClusterFixture.aCluster().nodes(2).configured();
    }
}
