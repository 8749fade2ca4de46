package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A repeating reservation whose window has ended is moved on by slurmctld's periodic pass, every
 * 30 s from its start, not at once: Slurm 22.05 shows the ended window, INACTIVE, right after its
 * end (compat 222), then the next one.
 */
class TestReservationRollover {
    private static final long STARTED = 1_796_500_000L;

    private static Reservation daily(long start, long end) {
        return new Reservation(
                "r",
                1,
                start,
                end,
                Reservation.Holding.whole(List.of("n1"), "", 4),
                new Reservation.Access(List.of("root"), false, List.of()),
                Set.of(ReservationFlag.DAILY));
    }

    @Test
    void theEndedWindowStaysUntilThePeriodicPassThenTheNextIsSaved() {
        ClusterFixture cluster = ClusterFixture.idle(1, 4, STARTED);
        // A window from 5 s to 12 s after the controller started.
        cluster.replay(new StateRecord.ReservationSaved(daily(STARTED + 5, STARTED + 12), STARTED));
        var clock = new ReservationRollover.Periodic(STARTED);

        for (long now = STARTED + 1; now < STARTED + 30; now++) {
            cluster.apply(clock.advance(cluster.state(), now));
        }
        assertThat(cluster.state().reservations().byName().get("r").start()).isEqualTo(STARTED + 5);
        // What scontrol show reservation lists meanwhile: the ended window (the scheduler already
        // reads the next one).
        assertThat(cluster.state().reservations().shown(STARTED + 29))
                .extracting(Reservation::start)
                .containsExactly(STARTED + 5);
        assertThat(cluster.state().reservations().current(STARTED + 29))
                .extracting(Reservation::start)
                .containsExactly(STARTED + 5 + 86_400);

        cluster.apply(clock.advance(cluster.state(), STARTED + 30));
        Reservation moved = cluster.state().reservations().byName().get("r");
        assertThat(moved.start()).isEqualTo(STARTED + 5 + 86_400);
        assertThat(moved.end()).isEqualTo(STARTED + 12 + 86_400);
    }

    @Test
    void thePassComesEvery30SecondsFromTheLastOneNotFromTheWindowsEnd() {
        ClusterFixture cluster = ClusterFixture.idle(1, 4, STARTED);
        var clock = new ReservationRollover.Periodic(STARTED);
        cluster.apply(clock.advance(cluster.state(), STARTED + 30));
        // Ends at 31 s: the pass at 30 s came before its end, the next one is at 60 s.
        cluster.replay(new StateRecord.ReservationSaved(daily(STARTED + 29, STARTED + 31), STARTED + 29));
        for (long now = STARTED + 31; now < STARTED + 60; now++) {
            cluster.apply(clock.advance(cluster.state(), now));
        }
        assertThat(cluster.state().reservations().byName().get("r").end()).isEqualTo(STARTED + 31);
        cluster.apply(clock.advance(cluster.state(), STARTED + 60));
        assertThat(cluster.state().reservations().byName().get("r").end()).isEqualTo(STARTED + 31 + 86_400);
    }
}
