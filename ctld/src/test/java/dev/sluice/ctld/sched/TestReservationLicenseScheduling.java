package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Licenses held by advance reservations (Slurm 22.05, compat 284, 286): jobs outside one may not
 * take them while their time limit meets its window, however few its own jobs use; its jobs take
 * them and the unreserved ones too, on any node when it is ANY_NODES.
 */
class TestReservationLicenseScheduling {
    private static final long NOW = 1_000_000;
    private static final Licenses CONFIGURED = Licenses.configured("foo:4,bar");

    private ClusterFixture cluster;
    private ClusterState state;

    private void cluster() {
        cluster = ClusterFixture.idle(2, 8, NOW);
        state = cluster.state();
    }

    /** An ANY_NODES reservation of these licenses over {@code [start, end)} for user1000. */
    private void reserve(String name, long start, long end, String licenses, ReservationFlag... flags) {
        Set<ReservationFlag> f = EnumSet.of(ReservationFlag.ANY_NODES);
        f.addAll(List.of(flags));
        cluster.replay(new StateRecord.ReservationSaved(
                new Reservation(
                        name,
                        (int) cluster.sequence(),
                        start,
                        end,
                        new Reservation.Holding(List.of(), "", 0, java.util.Map.of(), Licenses.parse(licenses)),
                        new Reservation.Access(List.of("user1000"), false, List.of()),
                        f),
                NOW));
    }

    private int submit(JobRequest request, long minutes) {
        return cluster.submit(request, "p", minutes, NOW - 10);
    }

    private SchedulePlan schedule() {
        Scheduler.SelectDefaults select = new Scheduler.SelectDefaults(false, 0, Set.of(), false, CONFIGURED);
        return new Scheduler(
                        SchedulerConfig.builder(select).reservationDepth(10).build())
                .schedule(state.image(), NOW);
    }

    private SchedulePlan scheduleAndStart() {
        SchedulePlan plan = schedule();
        cluster.start(plan, NOW);
        return plan;
    }

    private static List<Integer> started(SchedulePlan plan) {
        return plan.starts().stream().map(SchedulePlan.Start::jobId).toList();
    }

    @Test
    void anOutsideJobMayNotTakeReservedLicensesEvenWhileTheReservationsJobsLeaveThemUnused() {
        cluster();
        reserve("r", NOW, NOW + 3600, "foo:2");
        int outTwo = submit(aJob().licenses("foo:2").build(), 10);
        assertThat(started(scheduleAndStart())).containsExactly(outTwo);

        int outOne = submit(aJob().licenses("foo:1").build(), 10);
        int inTwo = submit(aJob().licenses("foo:2").reservation("r").build(), 10);
        int unreserved = submit(aJob().licenses("bar").build(), 10);
        SchedulePlan plan = scheduleAndStart();
        assertThat(started(plan)).containsExactlyInAnyOrder(inTwo, unreserved);
        assertThat(plan.pendingReasons()).containsEntry(outOne, JobReason.LICENSES);

        // The outside holder leaves: 1 + 2 used + 2 reserved is still more than 4.
        cluster.replay(StateRecord.JobEnded.unrequested(outTwo, JobState.COMPLETED, 0, JobReason.NONE, NOW));
        assertThat(schedule().pendingReasons()).containsEntry(outOne, JobReason.LICENSES);
        // The inside one leaves: 1 + 0 + 2 fits.
        cluster.replay(StateRecord.JobEnded.unrequested(inTwo, JobState.COMPLETED, 0, JobReason.NONE, NOW));
        assertThat(started(schedule())).containsExactly(outOne);
    }

    @Test
    void aJobInTheReservationTakesUnreservedLicensesToo() {
        cluster();
        reserve("r", NOW, NOW + 3600, "foo:2");
        int all = submit(aJob().licenses("foo:4").reservation("r").build(), 10);
        assertThat(started(scheduleAndStart())).containsExactly(all);
    }

    @Test
    void aFutureWindowKeepsItsLicensesOnlyFromJobsThatWouldStillRunThen() {
        cluster();
        reserve("r", NOW + 600, NOW + 1200, "foo:3");
        int reaching = submit(aJob().licenses("foo:2").build(), 60);
        int endsBefore = submit(aJob().licenses("foo:2").build(), 5);
        SchedulePlan plan = scheduleAndStart();
        assertThat(started(plan)).containsExactly(endsBefore);
        assertThat(plan.pendingReasons()).containsEntry(reaching, JobReason.LICENSES);
    }

    /**
     * Whatever jobs ask, in the reservation or not, and however passes and job ends interleave,
     * the jobs outside an active reservation never hold more of a license than the total less
     * what the reservation holds, and all jobs together never more than the total.
     */
    @Property(tries = 60)
    void reservedLicensesAreNeverGivenToAnOutsideJobDuringTheWindow(
            @ForAll @IntRange(min = 0, max = 4) int reserved,
            @ForAll("requests") List<String> requests,
            @ForAll("ends") List<Integer> ends) {
        cluster();
        reserve("r", NOW - 60, NOW + 3600, "foo:" + reserved);
        for (int i = 0; i < requests.size(); i++) {
            JobRequest request = i % 3 == 0
                    ? aJob().licenses(requests.get(i)).reservation("r").build()
                    : aJob().licenses(requests.get(i)).build();
            submit(request, 30);
        }
        for (int end : ends) {
            scheduleAndStart();
            long outside = 0;
            long all = 0;
            for (Job job : state.image().jobs()) {
                if (job.isRunning()) {
                    long foo = job.request().licenses().count("foo");
                    all += foo;
                    outside += job.request().reservation().isEmpty() ? foo : 0;
                }
            }
            assertThat(outside).isLessThanOrEqualTo(CONFIGURED.count("foo") - reserved);
            assertThat(all).isLessThanOrEqualTo(CONFIGURED.count("foo"));
            List<Job> running =
                    state.image().jobs().stream().filter(Job::isRunning).toList();
            if (!running.isEmpty()) {
                Job done = running.get(Math.floorMod(end, running.size()));
                cluster.replay(StateRecord.JobEnded.unrequested(done.id(), JobState.COMPLETED, 0, JobReason.NONE, NOW));
            }
        }
    }

    @Provide
    Arbitrary<List<String>> requests() {
        return Arbitraries.of("foo:1", "foo:2", "foo:3", "foo:4", "bar", "foo:1,bar", "")
                .list()
                .ofMinSize(1)
                .ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<Integer>> ends() {
        return Arbitraries.integers().between(0, 20).list().ofMinSize(1).ofMaxSize(15);
    }
}
