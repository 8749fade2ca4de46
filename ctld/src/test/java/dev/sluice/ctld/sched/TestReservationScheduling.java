package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Allocation;
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
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Advance reservations in the scheduler: outside jobs are kept off reserved nodes for as long as
 * they would overlap the window (backfill respects its start), jobs in a reservation run only on
 * its nodes and only once it has begun.
 */
class TestReservationScheduling {
    private static final long NOW = 1_000_000;
    private static final List<String> NODES = List.of("n1", "n2", "n3");

    private ClusterState state;
    private ClusterFixture cluster;
    private long clock = NOW;

    private void cluster() {
        cluster = ClusterFixture.idle(NODES.size(), 4, NOW);
        state = cluster.state();
    }

    private void reserve(String name, long start, long end, List<String> nodes, ReservationFlag... flags) {
        reserve(name, start, end, nodes, 0, flags);
    }

    /** With {@code partialCores} above 0, only cores 0 to partialCores-1 of each node (CoreCnt=). */
    private void reserve(
            String name, long start, long end, List<String> nodes, int partialCores, ReservationFlag... flags) {
        Set<ReservationFlag> f = EnumSet.noneOf(ReservationFlag.class);
        f.addAll(List.of(flags));
        java.util.Map<String, List<Integer>> cores = new java.util.LinkedHashMap<>();
        for (String n : partialCores > 0 ? nodes : List.<String>of()) {
            cores.put(
                    n, java.util.stream.IntStream.range(0, partialCores).boxed().toList());
        }
        int count = partialCores > 0 ? partialCores * nodes.size() : 4 * nodes.size();
        cluster.replay(new StateRecord.ReservationSaved(
                new Reservation(
                        name,
                        (int) cluster.sequence(),
                        start,
                        end,
                        new Reservation.Holding(nodes, "", count, cores),
                        new Reservation.Access(List.of("user1000"), false, List.of()),
                        f),
                NOW));
    }

    private int submit(JobRequest request, long minutes) {
        return cluster.submit(request, "p", minutes, NOW - 10);
    }

    private SchedulePlan schedule() {
        return new Scheduler(SchedulerConfig.builder(Scheduler.SelectDefaults.DEFAULT)
                        .reservationDepth(10)
                        .build())
                .schedule(state.image(), clock);
    }

    private void start(SchedulePlan plan) {
        cluster.start(plan, clock);
    }

    private List<String> nodesOf(int jobId) {
        return state.job(jobId).allocation().nodeNames();
    }

    @Test
    void anOutsideJobIsKeptOffAnActiveReservationsNodes() {
        cluster();
        reserve("r", NOW, NOW + 3600, List.of("n1", "n2"));
        int named = submit(aJob().require("n1").uid(2000).build(), 10);
        int wide = submit(aJob().nodes(2).uid(2000).build(), 10);
        int small = submit(aJob().uid(2000).build(), 10);
        SchedulePlan plan = schedule();
        start(plan);
        assertThat(nodesOf(small)).containsExactly("n3");
        assertThat(plan.pendingReasons()).containsEntry(named, JobReason.MAY_BE_RESERVED);
        assertThat(plan.pendingReasons()).containsEntry(wide, JobReason.NODES_RESERVED);
    }

    @Test
    void aJobKeptOffAMaintReservationIsReservedForMaintenanceOnceItsNodesAreMarked() {
        cluster();
        reserve("m", NOW, NOW + 3600, NODES, ReservationFlag.MAINT);
        int named = submit(aJob().require("n2").uid(2000).build(), 10);
        int any = submit(aJob().uid(2000).build(), 10);
        // Just begun: Slurm has not marked the nodes yet (compat 110).
        SchedulePlan early = schedule();
        assertThat(early.pendingReasons()).containsEntry(named, JobReason.MAY_BE_RESERVED);
        assertThat(early.pendingReasons()).containsEntry(any, JobReason.NODES_RESERVED);
        // Marked: both jobs wait "Reserved for maintenance" (compat 161).
        clock = NOW + ReservationFence.MARKED_AFTER_SECONDS;
        SchedulePlan marked = schedule();
        assertThat(marked.pendingReasons()).containsEntry(named, JobReason.RESERVED_FOR_MAINTENANCE);
        assertThat(marked.pendingReasons()).containsEntry(any, JobReason.RESERVED_FOR_MAINTENANCE);
        assertThat(marked.starts()).isEmpty();
    }

    @Test
    void aPartialNodeReservationKeepsItsCoresAndLeavesTheRestToOutsideJobs() {
        // As Slurm 22.05 with Nodes=n1 CoreCnt=2 (compat 162).
        cluster();
        reserve("r", NOW, NOW + 3600, List.of("n1"), 2);
        int outside = submit(aJob().require("n1").tasks(2).uid(2000).build(), 10);
        int more = submit(aJob().require("n1").uid(2000).build(), 10);
        int inside = submit(aJob().reservation("r").tasks(2).uid(1000).build(), 10);
        SchedulePlan plan = schedule();
        start(plan);
        assertThat(state.job(outside).allocation().nodes().get(0).cores()).containsExactly(2, 3);
        assertThat(state.job(inside).allocation().nodes().get(0).cores()).containsExactly(0, 1);
        assertThat(plan.pendingReasons()).containsEntry(more, JobReason.RESOURCES);
    }

    @Test
    void aJobWaitingForItsPartialReservationsCoresHoldsBackNoOtherCore() {
        // Core 0 of n1 and n2 (NodeCnt=2 CoreCnt=2): the second job in it is planned on the
        // first's cores once that one ends, which the job outside, running past then, may not
        // count twice: it takes every other core meanwhile.
        cluster();
        reserve("r", NOW, NOW + 3600, List.of("n1", "n2"), 1);
        int first = submit(aJob().reservation("r").tasks(2).uid(1000).build(), 10);
        int second = submit(aJob().reservation("r").uid(1000).build(), 10);
        int outside = submit(aJob().tasks(10).uid(2000).build(), 30);
        SchedulePlan plan = schedule();
        start(plan);
        assertThat(state.job(first).isRunning()).isTrue();
        assertThat(plan.pendingReasons()).containsEntry(second, JobReason.RESOURCES);
        assertThat(state.job(outside).isRunning()).isTrue();
        assertThat(state.job(outside).allocation().nodes().get(0).cores()).containsExactly(1, 2, 3);
    }

    @Test
    void aJobInAReservationIsPlannedNothingAfterItsEnd() {
        // As Slurm 22.05 (compat 292): the first job in it runs past the reservation's end, so
        // the second can never start in it; no core is held for it from that end on.
        cluster();
        reserve("r", NOW, NOW + 3590, List.of("n1", "n2"), 1);
        int first = submit(aJob().reservation("r").tasks(2).uid(1000).build(), 60);
        start(schedule());
        clock += 2;
        int second = submit(aJob().reservation("r").uid(1000).build(), 60);
        int outside = submit(aJob().tasks(10).uid(2000).build(), 60);
        int more = submit(aJob().uid(2000).build(), 60);
        SchedulePlan plan = schedule();
        start(plan);
        assertThat(state.job(first).isRunning()).isTrue();
        assertThat(plan.pendingReasons()).containsEntry(second, JobReason.RESOURCES);
        assertThat(state.job(outside).isRunning()).isTrue();
        // The second blocks its reservation only: the next job outside waits for Resources.
        assertThat(plan.pendingReasons()).containsEntry(more, JobReason.RESOURCES);
    }

    @Test
    void aJobThatCannotStartInItsReservationHoldsBackItsLaterJobsThere() {
        // As Slurm 22.05 with Nodes=n1 CoreCnt=2 (compat 201): three tasks never fit its two
        // cores, and the two-task job after it waits with Priority (failed_resv).
        cluster();
        reserve("r", NOW, NOW + 600, List.of("n1"), 2);
        int big = submit(aJob().reservation("r").tasks(3).uid(1000).build(), 1);
        int small = submit(aJob().reservation("r").tasks(2).uid(1000).build(), 1);
        SchedulePlan plan = schedule();
        assertThat(plan.starts()).isEmpty();
        assertThat(plan.pendingReasons()).containsEntry(big, JobReason.RESOURCES);
        assertThat(plan.pendingReasons()).containsEntry(small, JobReason.PRIORITY);
    }

    @Test
    void aPlainReservationNeverSaysMaintenance() {
        cluster();
        reserve("r", NOW, NOW + 3600, NODES);
        int any = submit(aJob().uid(2000).build(), 10);
        clock = NOW + 60;
        assertThat(schedule().pendingReasons()).containsEntry(any, JobReason.NODES_RESERVED);
    }

    @Test
    void backfillStartsAnOutsideJobOnReservedNodesOnlyIfItEndsBeforeTheWindow() {
        cluster();
        reserve("r", NOW + 600, NOW + 4200, List.of("n1"));
        int tooLong = submit(aJob().require("n1").uid(2000).build(), 20);
        int fits = submit(aJob().require("n1").uid(2000).build(), 5);
        SchedulePlan plan = schedule();
        start(plan);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(fits);
        assertThat(plan.pendingReasons()).containsEntry(tooLong, JobReason.MAY_BE_RESERVED);
        // Backfill plans it for when the window is over.
        assertThat(plan.expectedStarts()).containsEntry(tooLong, NOW + 4200);
    }

    @Test
    void aJobInAReservationWaitsForItsStartThenRunsOnItsNodesOnly() {
        cluster();
        reserve("r", NOW + 600, NOW + 4200, List.of("n2"));
        int inside = submit(aJob().reservation("r").tasks(2).build(), 10);
        SchedulePlan before = schedule();
        assertThat(before.starts()).isEmpty();
        assertThat(before.pendingReasons()).containsEntry(inside, JobReason.RESERVATION);
        clock = NOW + 600;
        start(schedule());
        assertThat(nodesOf(inside)).containsExactly("n2");
        // More than its nodes hold: it waits rather than spill over.
        int big = submit(aJob().reservation("r").tasks(4).build(), 10);
        assertThat(schedule().starts()).extracting(SchedulePlan.Start::jobId).doesNotContain(big);
    }

    @Test
    void aFlexReservationsJobsMayUseOtherNodesAndAMagneticOneTakesItsUsersJobs() {
        cluster();
        reserve("flex", NOW, NOW + 3600, List.of("n1"), ReservationFlag.FLEX);
        int wide = submit(aJob().reservation("flex").nodes(2).build(), 10);
        start(schedule());
        assertThat(nodesOf(wide)).hasSize(2).contains("n1");
        reserve("magnet", NOW, NOW + 3600, List.of("n3"), ReservationFlag.MAGNETIC);
        int mine = submit(aJob().require("n3").build(), 10);
        int theirs = submit(aJob().require("n3").uid(2000).build(), 10);
        SchedulePlan plan = schedule();
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(mine);
        assertThat(plan.pendingReasons()).containsEntry(theirs, JobReason.MAY_BE_RESERVED);
    }

    @Test
    void aFlexJobThatMustGoOutsideWaitsWithoutAReasonAndHoldsNothingBack() {
        // As Slurm 22.05 (compat 223): a job of an active FLEX reservation on n1 that needs two
        // nodes while the others are full waits with None, and a later job of the reservation
        // that fits n1 starts there meanwhile; one that fits but finds n1 full waits for
        // Resources.
        cluster();
        reserve("flex", NOW, NOW + 3600, List.of("n1"), ReservationFlag.FLEX);
        int n2 = submit(aJob().tasks(4).require("n2").build(), 10);
        int n3 = submit(aJob().tasks(4).require("n3").build(), 10);
        start(schedule());
        assertThat(nodesOf(n2)).containsExactly("n2");
        assertThat(nodesOf(n3)).containsExactly("n3");
        int wide = submit(aJob().reservation("flex").nodes(2).build(), 10);
        int inside = submit(aJob().reservation("flex").tasks(4).require("n1").build(), 10);
        SchedulePlan plan = schedule();
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(inside);
        assertThat(plan.pendingReasons()).containsEntry(wide, JobReason.NONE);
        start(plan);
        int small = submit(aJob().reservation("flex").tasks(1).build(), 10);
        SchedulePlan later = schedule();
        assertThat(later.starts()).isEmpty();
        assertThat(later.pendingReasons())
                .containsEntry(wide, JobReason.NONE)
                .containsEntry(small, JobReason.RESOURCES);
    }

    @Test
    void aMagneticReservationTakesItsUsersJobsWholeOrNotAtAll() {
        // As Slurm 22.05 (compat 202): inside while they fit there, then outside on the nodes no
        // reservation holds, never across both.
        cluster();
        reserve("magnet", NOW, NOW + 3600, List.of("n1"), ReservationFlag.MAGNETIC);
        int wide = submit(aJob().nodes(3).build(), 10);
        SchedulePlan first = schedule();
        assertThat(first.starts()).isEmpty();
        assertThat(first.pendingReasons()).containsEntry(wide, JobReason.MAY_BE_RESERVED);
        int a = submit(aJob().tasks(2).build(), 10);
        int b = submit(aJob().tasks(2).build(), 10);
        int c = submit(aJob().tasks(2).build(), 10);
        start(schedule());
        assertThat(nodesOf(a)).containsExactly("n1");
        assertThat(nodesOf(b)).containsExactly("n1");
        assertThat(nodesOf(c)).doesNotContain("n1");
    }

    record Resv(int firstNode, int nodeCount, long startOffset, long length, boolean daily, int partialCores) {}

    record Sub(boolean inside, int resv, int tasks, int minutes, int require) {}

    /**
     * Whatever reservations exist and whatever jobs come, across passes at later and later times
     * with jobs ending, no job outside a reservation ever runs on one of its nodes at a moment of
     * its window (from the job's start to the end of its time limit).
     */
    @Property(tries = 80)
    void aReservationsNodesAreNeverGivenToAnOutsideJobDuringItsWindow(
            @ForAll("reservations") List<Resv> resvs,
            @ForAll("jobs") List<Sub> jobs,
            @ForAll("steps") List<Integer> steps) {
        cluster();
        clock = NOW;
        for (int i = 0; i < resvs.size(); i++) {
            Resv r = resvs.get(i);
            List<String> nodes = NODES.subList(r.firstNode(), Math.min(NODES.size(), r.firstNode() + r.nodeCount()));
            reserve(
                    "r" + i,
                    NOW + r.startOffset(),
                    NOW + r.startOffset() + r.length(),
                    nodes,
                    r.partialCores(),
                    r.daily() ? new ReservationFlag[] {ReservationFlag.DAILY} : new ReservationFlag[0]);
        }
        for (Sub s : jobs) {
            Builders.JobBuilder b = aJob().tasks(s.tasks()).uid(s.inside() ? 1000 : 2000);
            if (s.inside() && !resvs.isEmpty()) {
                b.reservation("r" + (s.resv() % resvs.size()));
            }
            if (s.require() >= 0) {
                b.require(NODES.get(s.require()));
            }
            submit(b.build(), s.minutes());
        }
        for (int step : steps) {
            start(schedule());
            assertNoOutsideJobOnReservedNodes();
            List<Job> running =
                    state.image().jobs().stream().filter(Job::isRunning).toList();
            if (!running.isEmpty() && step % 3 == 0) {
                Job done = running.get(step % running.size());
                cluster.replay(
                        StateRecord.JobEnded.unrequested(done.id(), JobState.COMPLETED, 0, JobReason.NONE, clock));
            }
            clock += step * 60L;
        }
    }

    private void assertNoOutsideJobOnReservedNodes() {
        for (Job job : state.image().jobs()) {
            if (!job.isRunning()) {
                continue;
            }
            long end = job.run().startTime() + job.terms().timeLimitMinutes() * 60;
            for (Reservation r : state.reservations().current(job.run().startTime())) {
                boolean inside = r.name().equals(job.request().reservation());
                if (r.partial() && r.overlaps(job.run().startTime(), end)) {
                    // Partial nodes: outside jobs never on its cores, its own jobs only on them.
                    for (Allocation.NodeShare s : job.allocation().nodes()) {
                        List<Integer> held = r.cores().getOrDefault(s.node(), List.of());
                        if (inside && r.cores().containsKey(s.node())) {
                            assertThat(held).as("job %d inside %s", job.id(), r).containsAll(s.cores());
                        } else if (!inside && !held.isEmpty()) {
                            assertThat(s.cores())
                                    .as("job %d outside %s", job.id(), r)
                                    .doesNotContainAnyElementsOf(held);
                        }
                    }
                    continue;
                }
                if (inside || !r.overlaps(job.run().startTime(), end)) {
                    continue;
                }
                assertThat(job.allocation().nodeNames())
                        .as("job %d (%s) during %s", job.id(), job.request().reservation(), r)
                        .doesNotContainAnyElementsOf(r.nodes());
            }
        }
    }

    @Provide
    Arbitrary<List<Resv>> reservations() {
        // Disjoint nodes per reservation keep them from overlapping, as creation ensures.
        return Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(1, 2),
                        Arbitraries.longs().between(0, 7200),
                        Arbitraries.longs().between(60, 7200),
                        Arbitraries.of(true, false),
                        Arbitraries.of(0, 0, 1, 2, 3))
                .as(Resv::new)
                .list()
                .ofMaxSize(2)
                .filter(TestReservationScheduling::disjoint);
    }

    private static boolean disjoint(List<Resv> list) {
        if (list.size() < 2) {
            return true;
        }
        Resv a = list.get(0);
        Resv b = list.get(1);
        return a.firstNode() + a.nodeCount() <= b.firstNode() || b.firstNode() + b.nodeCount() <= a.firstNode();
    }

    @Provide
    Arbitrary<List<Sub>> jobs() {
        return Combinators.combine(
                        Arbitraries.of(true, false),
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.integers().between(1, 240),
                        Arbitraries.integers().between(-1, 2))
                .as(Sub::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<Integer>> steps() {
        return Arbitraries.integers().between(0, 90).list().ofMinSize(1).ofMaxSize(10);
    }
}
