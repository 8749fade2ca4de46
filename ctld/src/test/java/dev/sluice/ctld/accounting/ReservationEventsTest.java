package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.ReservationAccountingRecord;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReservationEventsTest {
    private static final Reservation R = new Reservation(
            "r1",
            3,
            1000,
            1300,
            Reservation.Holding.whole(List.of("n2", "n1"), "", 8),
            new Reservation.Access(List.of("root", "alice"), false, List.of()),
            EnumSet.of(ReservationFlag.IGNORE_JOBS, ReservationFlag.MAINT, ReservationFlag.SPEC_NODES));

    @Test
    void aSavedReservationShipsWhatItHoldsAsScontrolShowsIt() {
        ReservationAccountingRecord r = ReservationEvents.of(new StateRecord.ReservationSaved(R, 1005))
                .orElseThrow()
                .getReservation();
        assertThat(r.getId()).isEqualTo(3);
        assertThat(r.getName()).isEqualTo("r1");
        assertThat(r.getTime()).isEqualTo(1005);
        assertThat(r.getStartTime()).isEqualTo(1000);
        assertThat(r.getEndTime()).isEqualTo(1300);
        assertThat(r.getNodes()).isEqualTo("n[1-2]");
        assertThat(r.getTres()).isEqualTo("cpu=8");
        assertThat(r.getFlags()).isEqualTo("MAINT,IGNORE_JOBS,SPEC_NODES");
        assertThat(r.getUsersList()).containsExactly("root", "alice");
        assertThat(r.getDeleted()).isFalse();
    }

    @Test
    void excludedUsersNameNobodyTheReservationIsFor() {
        Reservation excluding = new Reservation(
                "r2",
                4,
                1000,
                1300,
                Reservation.Holding.whole(List.of("n1"), "", 4),
                new Reservation.Access(List.of("bob"), true, List.of("physics")),
                EnumSet.noneOf(ReservationFlag.class));
        ReservationAccountingRecord r = ReservationEvents.of(new StateRecord.ReservationSaved(excluding, 1000))
                .orElseThrow()
                .getReservation();
        assertThat(r.getUsersList()).isEmpty();
        assertThat(r.getAccountsList()).containsExactly("physics");
    }

    @Test
    void aDeletionShipsTheNameAndTime() {
        ReservationAccountingRecord r = ReservationEvents.of(new StateRecord.ReservationDeleted("r1", 1100))
                .orElseThrow()
                .getReservation();
        assertThat(r.getDeleted()).isTrue();
        assertThat(r.getName()).isEqualTo("r1");
        assertThat(r.getTime()).isEqualTo(1100);
    }
}
