package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.PlanApplier;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Enforcement;
import dev.sluice.ctld.limits.Qos;
import dev.sluice.ctld.queue.PriorityWeights;
import dev.sluice.ctld.queue.QosPriorities;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.StateRecord;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * PreemptMode=GANG with a partition that forces sharing (OverSubscribe=FORCE:N): up to N jobs
 * are given the same cores and take turns of SchedulerTimeSlice seconds, one running at a time.
 * A pass runs every second, as the controller loop's tick runs one, and plans are applied as the
 * controller applies them ({@link PlanApplier}).
 */
class TestGangScheduling {
    private static final int CPUS = 4;
    private static final long SLICE = 5;

    private ClusterFixture cluster;
    private ClusterState state;
    private long now = 1_000_000;
    private SchedulePlan lastPlan;

    private void cluster(int nodes, String overSubscribe) {
        cluster(nodes, overSubscribe, List.of("share"));
    }

    /** Partitions of one PriorityTier on every node, all with the same OverSubscribe. */
    private void cluster(int nodes, String overSubscribe, List<String> partitions) {
        cluster = ClusterFixture.aCluster()
                .nodes(nodes)
                .cpus(CPUS)
                .partitions(names -> partitions.stream()
                        .map(p -> Partition.builder(p)
                                .nodes(names)
                                .isDefault(p.equals(partitions.getFirst()))
                                .preemptMode("")
                                .overSubscribe(overSubscribe)
                                .build())
                        .toList())
                .at(now - 1000, now)
                .build();
        state = cluster.state();
    }

    private int submit(int tasks) {
        return submit("share", aJob().tasks(tasks).build());
    }

    private int submit(String partition, JobRequest request) {
        return cluster.submit(request, partition, 60, now - 1);
    }

    private List<Effect> pass() {
        return pass(
                new PreemptPolicy(PreemptPolicy.Type.NONE, PreemptMode.OFF, Map.of(), 0, 0, true, SLICE, 0),
                AccountingPolicy.EMPTY);
    }

    private List<Effect> pass(PreemptPolicy preempt, AccountingPolicy accounting) {
        Scheduler.SelectDefaults select = Scheduler.SelectDefaults.DEFAULT;
        SchedulerConfig config = new SchedulerConfig(
                true, 10, 86400, PriorityWeights.BASIC, select, QosPriorities.DEFAULT, preempt, false);
        SchedulePlan plan = new Scheduler(config).schedule(state.image(), now, Enforcement.NONE, accounting);
        lastPlan = plan;
        ControlResult<Void> applied = PlanApplier.apply(state, plan, now);
        applied.records().forEach(cluster::replay);
        return applied.effects();
    }

    /**
     * A pass under preempt/qos with PreemptMode=SUSPEND,GANG, where QOS hipri preempts QOS
     * normal (compat 166, 212, 213).
     */
    private List<Effect> qosPass() {
        AccountingPolicy accounting = new AccountingPolicy(
                1,
                List.of(),
                Map.of(),
                Map.of(
                        "normal", Qos.builder("normal").build(),
                        "hipri",
                                Qos.builder("hipri").preempts(List.of("normal")).build()),
                dev.sluice.ctld.limits.UserWckeys.NONE);
        return pass(
                new PreemptPolicy(PreemptPolicy.Type.QOS, PreemptMode.SUSPEND, Map.of(), 0, 121, true, SLICE, 0),
                accounting);
    }

    /** Job {@code id} is cancelled now. */
    private void cancel(int id) {
        cluster.replay(StateRecord.JobEnded.unrequested(id, JobState.CANCELLED, 0, JobReason.NONE, now));
    }

    private JobState st(int id) {
        return state.job(id).status().state();
    }

    @Test
    void twoJobsOnTheSameCoresTakeTurnsOfOneSliceOnTheTimeslicersClock() {
        // The clock turns every SLICE seconds from the epoch (a multiple of SLICE here: now is).
        cluster(1, "FORCE:2");
        now += 2;
        int first = submit(4);
        pass();
        assertThat(st(first)).isEqualTo(JobState.RUNNING);

        now += 1;
        int second = submit(4);
        List<Effect> effects = pass();
        // Both are given n1's cores; the newcomer starts suspended and waits (compat 211): its
        // launch stops it, no Suspend of its own.
        assertThat(st(first)).isEqualTo(JobState.RUNNING);
        assertThat(st(second)).isEqualTo(JobState.SUSPENDED);
        assertThat(effects).containsExactly(new Effect.LaunchBatch(second));
        assertThat(cluster.node("n1").shownAllocCpus()).isEqualTo(4);

        // The first ran alone, filling free cores: it keeps them at the clock's next turn (2 s
        // on) and the newcomer runs from the one after, 7 s after its start (compat 225), not a
        // slice after the first job's start.
        long turn = now + 2;
        while (now < turn + SLICE - 1) {
            now += 1;
            pass();
            assertThat(st(second)).as("at %d", now - turn).isEqualTo(JobState.SUSPENDED);
        }
        now += 1;
        pass();
        assertThat(st(second)).isEqualTo(JobState.RUNNING);
        assertThat(st(first)).isEqualTo(JobState.SUSPENDED);

        // Then they swap at every turn of the clock, a pass late or not.
        for (int slice = 0; slice < 4; slice++) {
            JobState before = st(second);
            for (int s = 0; s < SLICE - 1; s++) {
                now += 1;
                pass();
                assertThat(st(second)).as("within a slice").isEqualTo(before);
            }
            now += slice == 2 ? 2 : 1;
            pass();
            assertThat(st(second)).as("after a slice").isNotEqualTo(before);
            assertThat(List.of(st(first), st(second))).containsExactlyInAnyOrder(JobState.RUNNING, JobState.SUSPENDED);
            now -= slice == 2 ? 1 : 0;
        }

        // The one left runs alone, at once, whichever it is.
        int suspended = st(first) == JobState.SUSPENDED ? first : second;
        int running = suspended == first ? second : first;
        cancel(running);
        now += 1;
        pass();
        assertThat(st(suspended)).isEqualTo(JobState.RUNNING);
        assertThat(cluster.node("n1").allocCpus()).isEqualTo(4);

        // Accounting's Suspended: the turns it waited, which its run time leaves out.
        Job ended = state.job(running);
        assertThat(ended.suspendedSeconds()).isPositive();
        assertThat(ended.suspendedSeconds() + ended.runSeconds(now))
                .isEqualTo(ended.run().endTime() - ended.run().startTime());
        Job last = state.job(suspended);
        assertThat(last.suspendedSeconds() + last.runSeconds(now))
                .isEqualTo(now - last.run().startTime());
    }

    @Test
    void aThirdJobWaitsForResourcesWhenTheCoresAreSharedByTwoAlready() {
        cluster(1, "FORCE:2");
        int first = submit(4);
        pass();
        int second = submit(4);
        pass();
        int third = submit(4);
        pass();
        assertThat(st(third)).isEqualTo(JobState.PENDING);
        assertThat(lastPlan.pendingReasons()).containsEntry(third, JobReason.RESOURCES);

        cancel(first);
        now += 1;
        pass();
        assertThat(st(third)).isNotEqualTo(JobState.PENDING);
        assertThat(List.of(st(second), st(third))).containsExactlyInAnyOrder(JobState.RUNNING, JobState.SUSPENDED);
    }

    @Test
    void withoutForcedSharingTheSecondJobWaits() {
        cluster(1, "NO");
        int first = submit(4);
        pass();
        int second = submit(4);
        pass();
        assertThat(st(first)).isEqualTo(JobState.RUNNING);
        assertThat(st(second)).isEqualTo(JobState.PENDING);
    }

    @Test
    void aJobOverTwoNodesTakesTurnsWithTwoOneNodeJobsThatRunTogether() {
        // compat 240: wide holds both nodes whole; left shares n1's cores with it, right n2's.
        cluster(2, "FORCE:2");
        int wide = submit("share", aJob().nodes(2).tasks(2 * CPUS).build());
        pass();
        int left = submit("share", aJob().tasks(CPUS).require("n1").build());
        pass();
        int right = submit("share", aJob().tasks(CPUS).require("n2").build());
        pass();
        assertThat(st(right)).isNotEqualTo(JobState.PENDING);
        Set<List<JobState>> seen = new java.util.HashSet<>();
        for (int i = 0; i < 6 * SLICE; i++) {
            now += 1;
            pass();
            seen.add(List.of(st(wide), st(left), st(right)));
        }
        assertThat(seen)
                .containsExactlyInAnyOrder(
                        List.of(JobState.RUNNING, JobState.SUSPENDED, JobState.SUSPENDED),
                        List.of(JobState.SUSPENDED, JobState.RUNNING, JobState.RUNNING));
    }

    @Test
    void jobsOnDifferentCoresBothRun() {
        cluster(1, "FORCE:2");
        int a = submit(2);
        int b = submit(2);
        pass();
        now += 3 * SLICE;
        pass();
        assertThat(st(a)).isEqualTo(JobState.RUNNING);
        assertThat(st(b)).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aQosPreemptorOfAPartitionOfTheSameTierRunsBesideItsVictim() {
        // compat 166: preempt/qos, PreemptMode=SUSPEND,GANG, partitions low and high of one
        // tier, both OverSubscribe=FORCE:1. The gang scheduler suspends for a job of the same
        // partition or a higher tier only: both run on, the cores counted once.
        cluster(1, "FORCE:1", List.of("low", "high"));
        int victim = submit("low", aJob().qos("normal").tasks(4).build());
        qosPass();
        int preemptor = submit("high", aJob().qos("hipri").tasks(1).build());
        List<Effect> effects = qosPass();
        assertThat(st(preemptor)).isEqualTo(JobState.RUNNING);
        assertThat(st(victim)).isEqualTo(JobState.RUNNING);
        assertThat(effects).noneMatch(e -> e instanceof Effect.Suspend);
        assertThat(cluster.node("n1").allocCpus()).isEqualTo(4);
        assertThat(cluster.node("n1").shownAllocCpus()).isEqualTo(4);

        now += 3 * SLICE;
        qosPass();
        assertThat(st(victim)).isEqualTo(JobState.RUNNING);
        assertThat(st(preemptor)).isEqualTo(JobState.RUNNING);

        // The preemptor's end frees none of the cores its victim still runs on.
        cancel(preemptor);
        assertThat(cluster.node("n1").allocCpus()).isEqualTo(4);
        int other = submit("low", aJob().qos("normal").tasks(1).build());
        qosPass();
        assertThat(st(other)).isEqualTo(JobState.PENDING);
        assertThat(st(victim)).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aQosPreemptorOfTheVictimsOwnPartitionTakesTurnsWithIt() {
        // compat 212, 213: preempt/qos, PreemptMode=SUSPEND,GANG, one partition with
        // OverSubscribe=FORCE:1. The preemptor gets its victim's cores but starts suspended; the
        // gang scheduler then gives them turns, as to any two jobs of a partition on one core.
        cluster(1, "FORCE:1", List.of("one"));
        int victim = submit("one", aJob().qos("normal").tasks(4).build());
        qosPass();
        now += 1;
        int preemptor = submit("one", aJob().qos("hipri").tasks(4).build());
        List<Effect> effects = qosPass();
        assertThat(st(victim)).isEqualTo(JobState.RUNNING);
        assertThat(st(preemptor)).isEqualTo(JobState.SUSPENDED);
        assertThat(effects).noneMatch(e -> e instanceof Effect.Suspend);
        assertThat(cluster.node("n1").shownAllocCpus()).isEqualTo(4);

        // A job of neither QOS's rank finds the cores taken.
        int third = submit("one", aJob().qos("normal").tasks(4).build());
        qosPass();
        assertThat(st(third)).isEqualTo(JobState.PENDING);
        assertThat(lastPlan.pendingReasons()).containsEntry(third, JobReason.RESOURCES);

        // The victim ran alone until the preemptor came (a second after a turn of the clock): it
        // keeps the cores at the next turn, the preemptor runs from the one after; then back.
        now += SLICE - 1;
        qosPass();
        assertThat(st(victim)).isEqualTo(JobState.RUNNING);
        assertThat(st(preemptor)).isEqualTo(JobState.SUSPENDED);
        now += SLICE;
        qosPass();
        assertThat(st(preemptor)).isEqualTo(JobState.RUNNING);
        assertThat(st(victim)).isEqualTo(JobState.SUSPENDED);
        now += SLICE;
        qosPass();
        assertThat(st(victim)).isEqualTo(JobState.RUNNING);
        assertThat(st(preemptor)).isEqualTo(JobState.SUSPENDED);

        // Once the preemptor ends, the victim runs alone and the third still waits for its cores.
        cancel(preemptor);
        now += 1;
        qosPass();
        assertThat(st(victim)).isEqualTo(JobState.RUNNING);
        assertThat(st(third)).isEqualTo(JobState.PENDING);
        // It waited from its start (a second after a turn) to the turn after next, and ended as
        // its own turn did.
        assertThat(state.job(preemptor).suspendedSeconds()).isEqualTo(2 * SLICE - 1);
    }

    // ------------------------------------------------------------------ property

    /**
     * Whatever jobs are given a node shared by N (FORCE:N): no core is ever given to more than N
     * jobs, nor run by more than one at once; and over enough slices, every job given cores
     * runs at some point (a gang's jobs each get their turn).
     */
    @Property(tries = 60)
    void noCoreIsOverSharedAndEveryJobGetsATurn(
            @ForAll @IntRange(min = 2, max = 4) int shares, @ForAll("sizes") List<Integer> sizes) {
        cluster(1, "FORCE:" + shares);
        for (int tasks : sizes) {
            submit(tasks);
        }
        Set<Integer> ran = new HashSet<>();
        long steps = (sizes.size() + 2) * SLICE * 2;
        for (long s = 0; s < steps; s++) {
            pass();
            check(shares, ran);
            now += 1;
        }
        for (Job j : state.image().jobs()) {
            if (j.allocation() != null) {
                assertThat(ran)
                        .as("job %d (%d CPUs) never ran", j.id(), j.allocation().totalCpus())
                        .contains(j.id());
            }
        }
    }

    private void check(int shares, Set<Integer> ran) {
        Map<Integer, Integer> given = new HashMap<>();
        Set<Integer> running = new HashSet<>();
        for (Job j : state.image().jobs()) {
            if (!j.isRunning()) {
                continue;
            }
            boolean runs = j.status().state() == JobState.RUNNING;
            if (runs) {
                ran.add(j.id());
            }
            for (Allocation.NodeShare s : j.allocation().nodes()) {
                for (int c : s.cores()) {
                    given.merge(c, 1, Integer::sum);
                    if (runs) {
                        assertThat(running.add(c))
                                .as("core %d run by two jobs", c)
                                .isTrue();
                    }
                }
            }
        }
        given.forEach((core, n) -> assertThat(n).as("jobs given core %d", core).isLessThanOrEqualTo(shares));
        assertThat(cluster.node("n1").shownAllocCpus()).isLessThanOrEqualTo(CPUS);
    }

    @Provide
    Arbitrary<List<Integer>> sizes() {
        return Arbitraries.integers().between(1, CPUS).list().ofMinSize(1).ofMaxSize(6);
    }
}
