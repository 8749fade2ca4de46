package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.ReservationRollover;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A reservation's nodes are never given to a job outside it during any of its windows, the later
 * windows of a repeating one (HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY) included, whatever the
 * flags (MAGNETIC lets only its own users' jobs in, FLEX lets its jobs out but not into another
 * reservation) and whatever the day the clock starts on. The windows are worked out here from the
 * calendar, hour by hour and day by day, not by {@link Reservation#window}; the controller's
 * periodic rollover runs between passes, as it does in the controller.
 */
class TestReservationWindowProperties {
    /** Monday 1 January 2024, 00:00 UTC. */
    private static final long MONDAY = 1_704_067_200L;

    private static final long HOUR = 3600;
    private static final long DAY = 24 * HOUR;
    private static final List<String> NODES = List.of("n1", "n2", "n3");
    private static final List<ReservationFlag> REPEATS = List.of(
            ReservationFlag.HOURLY,
            ReservationFlag.DAILY,
            ReservationFlag.WEEKDAY,
            ReservationFlag.WEEKEND,
            ReservationFlag.WEEKLY);

    /** A reservation of nodes [first, first+count), repeating by {@code repeat} (-1: not at all). */
    record Resv(int first, int count, long startOffset, long length, int repeat, boolean magnetic, boolean flex) {}

    /** A job: in reservation {@code resv} (or in none), of user 1000 (its users) or 2000. */
    record Sub(int resv, boolean user1000, int tasks, int minutes, int require) {}

    @Property(tries = 1000)
    void noOutsideJobRunsOnAReservationsNodesInAnyOfItsWindows(
            @ForAll @IntRange(min = 0, max = 6) int startDay,
            @ForAll @IntRange(min = 0, max = 23) int startHour,
            @ForAll("reservations") List<Resv> resvs,
            @ForAll("jobs") List<Sub> subs,
            @ForAll("steps") List<Integer> steps) {
        long now = MONDAY + startDay * DAY + startHour * HOUR;
        ClusterFixture cluster = ClusterFixture.idle(NODES.size(), 4, now);
        ClusterState state = cluster.state();
        List<Reservation> made = new ArrayList<>();
        for (int i = 0; i < resvs.size(); i++) {
            Resv r = resvs.get(i);
            Set<ReservationFlag> flags = EnumSet.noneOf(ReservationFlag.class);
            if (r.repeat() >= 0) {
                flags.add(REPEATS.get(r.repeat()));
            }
            if (r.magnetic()) {
                flags.add(ReservationFlag.MAGNETIC);
            }
            if (r.flex()) {
                flags.add(ReservationFlag.FLEX);
            }
            List<String> nodes = NODES.subList(r.first(), Math.min(NODES.size(), r.first() + r.count()));
            Reservation made1 = new Reservation(
                    "r" + i,
                    i + 1,
                    now + r.startOffset(),
                    now + r.startOffset() + r.length(),
                    Reservation.Holding.whole(nodes, "", 4 * nodes.size()),
                    new Reservation.Access(List.of("user1000"), false, List.of()),
                    flags);
            made.add(made1);
            cluster.replay(new StateRecord.ReservationSaved(made1, now));
        }
        for (Sub s : subs) {
            Builders.JobBuilder b = aJob().tasks(s.tasks()).uid(s.user1000() ? 1000 : 2000);
            if (s.resv() >= 0 && !resvs.isEmpty()) {
                b.reservation("r" + (s.resv() % resvs.size()));
            }
            if (s.require() >= 0) {
                b.require(NODES.get(s.require()));
            }
            int id = state.nextJobId();
            cluster.replay(new StateRecord.JobSubmitted(id, b.build(), "p", s.minutes(), now - 10));
        }
        Scheduler scheduler = new Scheduler(SchedulerConfig.builder(Scheduler.SelectDefaults.DEFAULT)
                .reservationDepth(10)
                .windowSeconds(7 * DAY)
                .build());
        long clock = now;
        for (int step : steps) {
            // A periodic pass at every step (as for a controller started 30 s before it).
            cluster.apply(ReservationRollover.advance(state, clock - ReservationRollover.PERIOD_SECONDS, clock));
            for (SchedulePlan.Start s : scheduler.schedule(state.image(), clock).starts()) {
                assertWholeInAnyMagnet(
                        state.job(s.jobId()).request(), s.allocation().nodeNames(), made, clock);
                cluster.replay(new StateRecord.JobStarted(
                        s.jobId(), s.allocation(), s.partition(), s.timeLimitMinutes(), clock));
            }
            for (Job job : state.image().jobs()) {
                if (job.isRunning()) {
                    assertOffOthersWindows(job, made);
                }
            }
            List<Job> running =
                    state.image().jobs().stream().filter(Job::isRunning).toList();
            if (!running.isEmpty() && step % 2 == 0) {
                Job done = running.get(step % running.size());
                cluster.replay(
                        StateRecord.JobEnded.unrequested(done.id(), JobState.COMPLETED, 0, JobReason.NONE, clock));
            }
            clock += step * 60L;
        }
    }

    /**
     * A job that names no reservation and starts on nodes of a MAGNETIC one in its window runs
     * on that one's nodes alone: inside it or outside it, never both (Slurm 22.05, compat 202).
     * (With FLEX the reservation's own jobs may spill over, so those are left out.)
     */
    private static void assertWholeInAnyMagnet(
            JobRequest request, List<String> nodes, List<Reservation> made, long clock) {
        if (!request.reservation().isEmpty()) {
            return;
        }
        for (Reservation r : made) {
            if (!r.has(ReservationFlag.MAGNETIC)
                    || r.has(ReservationFlag.FLEX)
                    || java.util.Collections.disjoint(nodes, r.nodes())) {
                continue;
            }
            for (long[] w : windows(r, clock + 1)) {
                if (w[0] <= clock && clock < w[1]) {
                    assertThat(r.nodes())
                            .as("job on %s at %d, in part on magnetic %s's nodes", nodes, clock, r.name())
                            .containsAll(nodes);
                }
            }
        }
    }

    private static void assertOffOthersWindows(Job job, List<Reservation> made) {
        long from = job.run().startTime();
        long to = from + job.terms().timeLimitMinutes() * 60;
        JobRequest request = job.request();
        for (Reservation r : made) {
            boolean inside = r.name().equals(request.reservation())
                    || (request.reservation().isEmpty()
                            && r.has(ReservationFlag.MAGNETIC)
                            && r.permits(request.owner().userName(), request.account()));
            if (inside || java.util.Collections.disjoint(job.allocation().nodeNames(), r.nodes())) {
                continue;
            }
            for (long[] w : windows(r, to)) {
                assertThat(w[0] < to && from < w[1])
                        .as(
                                "job %d [%d, %d) on %s, outside %s's window [%d, %d)",
                                job.id(), from, to, job.allocation().nodeNames(), r.name(), w[0], w[1])
                        .isFalse();
            }
        }
    }

    /** The windows of a reservation as first made that begin before {@code until}, by the calendar. */
    static List<long[]> windows(Reservation r, long until) {
        List<long[]> out = new ArrayList<>();
        long length = r.end() - r.start();
        out.add(new long[] {r.start(), r.end()});
        if (!r.repeats()) {
            return out;
        }
        long step = r.has(ReservationFlag.HOURLY) ? HOUR : DAY;
        for (long s = r.start() + step; s < until; s += step) {
            DayOfWeek day = Instant.ofEpochSecond(s).atZone(ZoneOffset.UTC).getDayOfWeek();
            boolean weekend = day == DayOfWeek.SATURDAY || day == DayOfWeek.SUNDAY;
            boolean weekly = (s - r.start()) % (7 * DAY) == 0;
            boolean takes = r.has(ReservationFlag.HOURLY)
                    || r.has(ReservationFlag.DAILY)
                    || (r.has(ReservationFlag.WEEKDAY) && !weekend)
                    || (r.has(ReservationFlag.WEEKEND) && weekend)
                    || (r.has(ReservationFlag.WEEKLY) && weekly);
            if (takes) {
                out.add(new long[] {s, s + length});
            }
        }
        return out;
    }

    @Provide
    Arbitrary<List<Resv>> reservations() {
        // Disjoint nodes per reservation, as creation ensures without OVERLAP.
        return Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(1, 2),
                        Arbitraries.longs().between(-1800, 2 * DAY),
                        Arbitraries.longs().between(60, 3000),
                        Arbitraries.integers().between(-1, REPEATS.size() - 1),
                        Arbitraries.of(true, false),
                        Arbitraries.of(true, false))
                .as(Resv::new)
                .list()
                .ofMaxSize(2)
                .filter(TestReservationWindowProperties::disjoint);
    }

    private static boolean disjoint(List<Resv> list) {
        if (list.size() < 2) {
            return true;
        }
        Resv a = list.get(0);
        Resv b = list.get(1);
        return a.first() + a.count() <= b.first() || b.first() + b.count() <= a.first();
    }

    @Provide
    Arbitrary<List<Sub>> jobs() {
        return Combinators.combine(
                        Arbitraries.integers().between(-1, 2),
                        Arbitraries.of(true, false),
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.of(5, 30, 59, 61, 120, 600, 1500),
                        Arbitraries.integers().between(-1, 2))
                .as(Sub::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<Integer>> steps() {
        // Minutes between passes: up to a day, so later windows and other weekdays come by.
        return Arbitraries.integers().between(0, 1440).list().ofMinSize(1).ofMaxSize(12);
    }
}
