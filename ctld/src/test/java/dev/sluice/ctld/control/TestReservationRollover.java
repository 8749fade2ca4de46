package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A reservation whose window has ended is moved on (repeating) or forgotten (one-shot) by
 * slurmctld's periodic pass, every 30 s from its start, not at once: Slurm 22.05 shows the ended
 * window, INACTIVE, right after its end (compat 222, 238), then the next one or none.
 */
class TestReservationRollover {
    private static final long STARTED = 1_796_500_000L;

    private static Reservation reservation(long start, long end, Set<ReservationFlag> flags) {
        return new Reservation(
                "r",
                1,
                start,
                end,
                Reservation.Holding.whole(List.of("n1"), "", 4),
                new Reservation.Access(List.of("root"), false, List.of()),
                flags);
    }

    private static Reservation daily(long start, long end) {
        return reservation(start, end, Set.of(ReservationFlag.DAILY));
    }

    private static void tick(ClusterFixture cluster, long from, long to) {
        for (long now = from; now < to; now++) {
            cluster.apply(ReservationRollover.advance(cluster.state(), STARTED, now));
        }
    }

    @Test
    void theEndedWindowStaysUntilThePeriodicPassThenTheNextIsSaved() {
        ClusterFixture cluster = ClusterFixture.idle(1, 4, STARTED);
        // A window from 5 s to 12 s after the controller started.
        cluster.replay(new StateRecord.ReservationSaved(daily(STARTED + 5, STARTED + 12), STARTED));

        tick(cluster, STARTED + 1, STARTED + 30);
        assertThat(cluster.state().reservations().byName().get("r").start()).isEqualTo(STARTED + 5);
        // What scontrol show reservation lists meanwhile: the ended window (the scheduler already
        // reads the next one).
        assertThat(cluster.state().reservations().shown())
                .extracting(Reservation::start)
                .containsExactly(STARTED + 5);
        assertThat(cluster.state().reservations().current(STARTED + 29))
                .extracting(Reservation::start)
                .containsExactly(STARTED + 5 + 86_400);

        tick(cluster, STARTED + 30, STARTED + 31);
        Reservation moved = cluster.state().reservations().byName().get("r");
        assertThat(moved.start()).isEqualTo(STARTED + 5 + 86_400);
        assertThat(moved.end()).isEqualTo(STARTED + 12 + 86_400);
    }

    @Test
    void anEndedOneShotIsShownUntilThePassThenForgotten() {
        ClusterFixture cluster = ClusterFixture.idle(1, 4, STARTED);
        cluster.replay(new StateRecord.ReservationSaved(
                reservation(STARTED + 5, STARTED + 12, EnumSet.noneOf(ReservationFlag.class)), STARTED));

        tick(cluster, STARTED + 1, STARTED + 30);
        assertThat(cluster.state().reservations().shown())
                .extracting(Reservation::end)
                .containsExactly(STARTED + 12);
        // The scheduler and the commands that name it no longer see it.
        assertThat(cluster.state().reservations().current(STARTED + 29)).isEmpty();
        assertThat(cluster.state().reservations().find("r", STARTED + 29)).isEmpty();

        var atPass = ReservationRollover.advance(cluster.state(), STARTED, STARTED + 30);
        assertThat(atPass.records()).containsExactly(new StateRecord.ReservationDeleted("r", STARTED + 30));
        cluster.apply(atPass);
        assertThat(cluster.state().reservations().shown()).isEmpty();
    }

    /**
     * slurmctld holds the pending jobs that still name a one-shot reservation it forgets
     * (RESV_DEL_HOLD, compat 255), a user's hold replaced; a running one and one naming another
     * are left alone.
     */
    @Test
    void thePassHoldsThePendingJobsThatNameTheForgottenReservation() {
        ClusterFixture cluster = ClusterFixture.idle(2, 4, STARTED);
        cluster.replay(new StateRecord.ReservationSaved(
                reservation(STARTED, STARTED + 6, EnumSet.noneOf(ReservationFlag.class)), STARTED));
        int waiting = cluster.state().nextJobId();
        cluster.replay(
                new StateRecord.JobSubmitted(waiting, aJob().reservation("r").build(), "p", 5, STARTED + 1));
        int held = cluster.state().nextJobId();
        cluster.replay(new StateRecord.JobSubmitted(
                held, aJob().reservation("r").hold().build(), "p", 5, STARTED + 1));
        int other = cluster.state().nextJobId();
        cluster.replay(
                new StateRecord.JobSubmitted(other, aJob().reservation("s").build(), "p", 5, STARTED + 1));

        tick(cluster, STARTED + 1, STARTED + 30);
        assertThat(cluster.state().image().job(waiting).orElseThrow().terms().hold())
                .isEqualTo(Job.Hold.NONE);

        var atPass = ReservationRollover.advance(cluster.state(), STARTED, STARTED + 30);
        assertThat(atPass.records())
                .containsExactly(
                        new StateRecord.JobHoldChanged(waiting, Job.Hold.RESV_DEL, STARTED + 30),
                        new StateRecord.JobHoldChanged(held, Job.Hold.RESV_DEL, STARTED + 30),
                        new StateRecord.ReservationDeleted("r", STARTED + 30));
        cluster.apply(atPass);
        assertThat(cluster.state().image().job(held).orElseThrow().standingReason())
                .isEqualTo(JobReason.RESERVATION_DELETED);
        assertThat(cluster.state().image().job(other).orElseThrow().terms().hold())
                .isEqualTo(Job.Hold.NONE);
        // Nothing more to do at the next pass.
        assertThat(ReservationRollover.advance(cluster.state(), STARTED, STARTED + 60)
                        .records())
                .isEmpty();
    }

    @Test
    void thePassComesEvery30SecondsFromTheStartNotFromTheWindowsEnd() {
        ClusterFixture cluster = ClusterFixture.idle(1, 4, STARTED);
        tick(cluster, STARTED + 1, STARTED + 31);
        // Ends at 31 s: the pass at 30 s came before its end, the next one is at 60 s.
        cluster.replay(new StateRecord.ReservationSaved(daily(STARTED + 29, STARTED + 31), STARTED + 29));
        tick(cluster, STARTED + 31, STARTED + 60);
        assertThat(cluster.state().reservations().byName().get("r").end()).isEqualTo(STARTED + 31);
        tick(cluster, STARTED + 60, STARTED + 61);
        assertThat(cluster.state().reservations().byName().get("r").end()).isEqualTo(STARTED + 31 + 86_400);
    }

    @Test
    void aBusyLoopThatMissesThePassSecondActsAtItsNextTick() {
        ClusterFixture cluster = ClusterFixture.idle(1, 4, STARTED);
        cluster.replay(new StateRecord.ReservationSaved(daily(STARTED + 5, STARTED + 12), STARTED));
        cluster.apply(ReservationRollover.advance(cluster.state(), STARTED, STARTED + 29));
        // No tick at 30 s; the next, at 33 s, does the pass's work.
        cluster.apply(ReservationRollover.advance(cluster.state(), STARTED, STARTED + 33));
        assertThat(cluster.state().reservations().byName().get("r").start()).isEqualTo(STARTED + 5 + 86_400);
    }

    /**
     * Whenever the loop ticks, the decision writes for an ended reservation once, at the first tick
     * at or after the first pass that came at or after its end, and never between passes.
     */
    @Property(tries = 300)
    void eachEndedReservationIsActedOnOnceAtTheFirstTickAfterItsPass(
            @ForAll @IntRange(min = 1, max = 200) int endAfter,
            @ForAll @IntRange(min = 1, max = 7) int tickEvery,
            @ForAll boolean repeats) {
        ClusterFixture cluster = ClusterFixture.idle(1, 4, STARTED);
        Set<ReservationFlag> flags = repeats ? Set.of(ReservationFlag.HOURLY) : Set.of();
        cluster.replay(new StateRecord.ReservationSaved(reservation(STARTED, STARTED + endAfter, flags), STARTED));
        long firstPass = STARTED + ((endAfter + 29) / 30) * 30;
        List<Long> wrote = new java.util.ArrayList<>();
        for (long now = STARTED + 1; now < STARTED + 400; now += tickEvery) {
            var result = ReservationRollover.advance(cluster.state(), STARTED, now);
            if (!result.records().isEmpty()) {
                wrote.add(now);
            }
            cluster.apply(result);
        }
        assertThat(wrote).hasSize(1);
        assertThat(wrote.get(0)).isGreaterThanOrEqualTo(firstPass).isLessThan(firstPass + tickEvery);
    }

    @Test
    void lastPassIsTheStartUntil30SecondsThenEvery30() {
        assertThat(ReservationRollover.lastPass(STARTED, STARTED)).isEqualTo(STARTED);
        assertThat(ReservationRollover.lastPass(STARTED, STARTED + 29)).isEqualTo(STARTED);
        assertThat(ReservationRollover.lastPass(STARTED, STARTED + 30)).isEqualTo(STARTED + 30);
        assertThat(ReservationRollover.lastPass(STARTED, STARTED + 89)).isEqualTo(STARTED + 60);
    }
}
