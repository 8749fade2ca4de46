package dev.sluice.ctld.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TestStateSaves {
    private static final long T0 = 1_000_000;
    private final AtomicLong now = new AtomicLong(T0);
    private final InstantSource clock = () -> Instant.ofEpochSecond(now.get());
    private final StateSaves saves = new StateSaves(clock);

    private static Reservation named(String name) {
        return new Reservation(
                name,
                1,
                T0,
                T0 + 3600,
                Reservation.Holding.whole(List.of("n1"), "p", 4),
                new Reservation.Access(List.of("root"), false, List.of()),
                Set.of());
    }

    /** One journaled batch at {@code at}. */
    private void batch(long at, StateRecord record) {
        now.set(at);
        saves.applied(1, record, null);
        saves.synced(1);
    }

    @Test
    void aReservationIsSavedAtOnceUnlessAnotherSaveCameWithinFiveSeconds() {
        batch(T0, new StateRecord.ReservationSaved(named("first"), T0));
        assertThat(saves.saved("first", T0)).isTrue();
        // A job's change two seconds later waits for T0 + 5, and so does a reservation made then.
        batch(T0 + 2, new StateRecord.JobHoldChanged(7, dev.sluice.ctld.state.Job.Hold.USER, T0 + 2));
        batch(T0 + 3, new StateRecord.ReservationSaved(named("second"), T0 + 3));
        assertThat(saves.saved("second", T0 + 3)).isFalse();
        assertThat(saves.saved("second", T0 + 4)).isFalse();
        assertThat(saves.saved("second", T0 + 5)).isTrue();
        // Long after the last save: at once again.
        batch(T0 + 20, new StateRecord.ReservationSaved(named("third"), T0 + 20));
        assertThat(saves.saved("third", T0 + 20)).isTrue();
        // One recovered at a start (never journaled here) is listed.
        assertThat(saves.saved("recovered", T0)).isTrue();
    }

    @Test
    void aBatchWithoutRecordsAsksForNoSave() {
        batch(T0, new StateRecord.ReservationDeleted("gone", T0));
        now.set(T0 + 6);
        saves.synced(2);
        batch(T0 + 7, new StateRecord.ReservationSaved(named("r"), T0 + 7));
        assertThat(saves.saved("r", T0 + 7)).isTrue();
    }
}
