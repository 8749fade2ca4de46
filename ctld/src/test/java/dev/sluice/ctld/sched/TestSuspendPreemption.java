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
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * PreemptMode=SUSPEND,GANG with preempt/partition_prio: a higher tier's job starts at once on
 * the cores of the lower tier's jobs, which are suspended and resume when their cores are free
 * again. Plans are applied as the controller applies them ({@link PlanApplier}), so the records
 * and the node usage they make are the ones under test.
 */
class TestSuspendPreemption {
    private static final int CPUS = 4;
    private static final Map<String, Integer> TIERS = Map.of("low", 1, "mid", 2, "high", 3);
    private static final PreemptPolicy SUSPEND =
            PreemptPolicy.withoutGang(PreemptPolicy.Type.PARTITION_PRIO, PreemptMode.SUSPEND, Map.of(), 0, 121);

    private ClusterFixture cluster;
    private ClusterState state;
    private long now = 1_000_000;

    /** Nodes n1..nN of 4 single-thread cores; partitions low, mid and high (tiers 1, 2, 3). */
    private void cluster(int nodes) {
        cluster(nodes, "FORCE:1");
    }

    private void cluster(int nodes, String overSubscribe) {
        cluster = ClusterFixture.aCluster()
                .nodes(nodes)
                .cpus(CPUS)
                .partitions(names -> tiers(names, overSubscribe))
                .at(now - 1000, now)
                .build();
        state = cluster.state();
    }

    private static List<Partition> tiers(List<String> names, String overSubscribe) {
        List<Partition> partitions = new ArrayList<>();
        for (String p : List.of("low", "mid", "high")) {
            partitions.add(Partition.builder(p)
                    .nodes(names)
                    .isDefault(p.equals("low"))
                    .priorityTier(TIERS.get(p))
                    .preemptMode("SUSPEND")
                    .overSubscribe(overSubscribe)
                    .build());
        }
        return partitions;
    }

    private int submit(String partition, int tasks) {
        return cluster.submit(aJob().tasks(tasks).build(), partition, 60, now - 1);
    }

    /** One pass, applied: its records replayed, its effects returned. */
    private List<Effect> pass() {
        SchedulePlan plan = PreemptionFixture.schedule(state, now, SUSPEND, AccountingPolicy.EMPTY);
        ControlResult<Void> applied = PlanApplier.apply(state, plan, now);
        applied.records().forEach(cluster::replay);
        return applied.effects();
    }

    private NodeView node(String name) {
        return cluster.node(name);
    }

    @Test
    void aHigherTierJobStartsAtOnceAndTheLowerTierJobIsSuspendedUntilItEnds() {
        cluster(1);
        int low = submit("low", 4);
        pass();
        assertThat(state.job(low).status().state()).isEqualTo(JobState.RUNNING);

        int high = submit("high", 1);
        List<Effect> effects = pass();
        assertThat(state.job(high).status().state()).isEqualTo(JobState.RUNNING);
        assertThat(state.job(low).status().state()).isEqualTo(JobState.SUSPENDED);
        assertThat(state.job(low).status().reason()).isEqualTo(JobReason.NONE);
        assertThat(effects).contains(new Effect.Suspend(low, List.of("n1"), true));
        // As Slurm 22.05 shows it: the suspended job's cores still count (CPUAlloc=4, ALLOCATED).
        assertThat(node("n1").shownAllocCpus()).isEqualTo(4);
        assertThat(node("n1").allocCpus()).isEqualTo(1);

        // A job of the low tier gets none of the suspended job's cores, nor does it preempt.
        int other = submit("low", 1);
        pass();
        assertThat(state.job(other).status().state()).isEqualTo(JobState.PENDING);
        assertThat(state.job(low).status().state()).isEqualTo(JobState.SUSPENDED);

        now += 30;
        cluster.replay(StateRecord.JobEnded.unrequested(high, JobState.COMPLETED, 0, JobReason.NONE, now));
        effects = pass();
        assertThat(state.job(low).status().state()).isEqualTo(JobState.RUNNING);
        assertThat(effects).contains(new Effect.Suspend(low, List.of("n1"), false));
        assertThat(state.job(other).status().state()).isEqualTo(JobState.PENDING);
        assertThat(node("n1").allocCpus()).isEqualTo(4);
    }

    @Test
    void aSnapshotKeepsTheSuspendedJobsResourcesLentToItsPreemptor() {
        cluster(1);
        int low = submit("low", 4);
        pass();
        submit("high", 1);
        pass();
        ClusterState restored = cluster.emptyCopy();
        for (StateRecord r : state.toRecords()) {
            restored.restore(cluster.sequence(), r);
        }
        assertThat(restored.job(low).suspension().byPreemption()).isTrue();
        NodeView n1 = restored.image().node("n1").orElseThrow();
        assertThat(n1.allocCpus()).isEqualTo(1);
        assertThat(n1.shownAllocCpus()).isEqualTo(4);
    }

    @Test
    void withoutOverSubscribeForceTheHigherTierJobWaits() {
        // Slurm 22.05 with OverSubscribe=NO (or YES) on the partitions: the preemptor pends.
        cluster(1, "NO");
        int low = submit("low", 4);
        pass();
        int high = submit("high", 1);
        pass();
        assertThat(state.job(high).status().state()).isEqualTo(JobState.PENDING);
        assertThat(state.job(low).status().state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void theSuspendedJobsRunTimeStandsStillWhileItIsSuspended() {
        cluster(1);
        int low = submit("low", 4);
        pass();
        now += 100;
        int high = submit("high", 2);
        pass();
        now += 500;
        assertThat(state.job(low).runSeconds(now)).isEqualTo(100);
        cluster.replay(StateRecord.JobEnded.unrequested(high, JobState.COMPLETED, 0, JobReason.NONE, now));
        pass();
        now += 10;
        assertThat(state.job(low).runSeconds(now)).isEqualTo(110);
    }

    @Test
    void aSuspendedJobThatEndsGivesNothingBackTwice() {
        cluster(1);
        int low = submit("low", 4);
        pass();
        int high = submit("high", 2);
        pass();
        cluster.replay(StateRecord.JobEnded.unrequested(low, JobState.CANCELLED, 0, JobReason.NONE, now));
        assertThat(node("n1").allocCpus()).isEqualTo(2);
        assertThat(node("n1").shownAllocCpus()).isEqualTo(2);
        int mid = submit("mid", 2);
        pass();
        assertThat(state.job(mid).status().state()).isEqualTo(JobState.RUNNING);
        assertThat(node("n1").allocCpus()).isEqualTo(4);
        assertThat(state.job(high).status().state()).isEqualTo(JobState.RUNNING);
    }

    // ------------------------------------------------------------------ property

    /** A step: submit a job of some tier and size, end the k-th job holding resources, or pass. */
    record Step(int kind, String partition, int tasks, int k) {}

    /**
     * Over any sequence of submissions, ends and passes: running jobs never share a core nor
     * hold more CPUs than a node has, and a suspended job's cores are held only by jobs of a
     * higher tier (its preemptors), never by one of its own tier or below.
     */
    @Property(tries = 200)
    void suspendedJobsResourcesGoOnlyToTheirPreemptorsAndNothingIsOverAllocated(@ForAll("steps") List<Step> steps) {
        cluster(2);
        for (Step step : steps) {
            now += 10;
            switch (step.kind()) {
                case 0 -> submit(step.partition(), step.tasks());
                case 1 -> {
                    List<Job> holding =
                            state.image().jobs().stream().filter(Job::isRunning).toList();
                    if (!holding.isEmpty()) {
                        Job j = holding.get(step.k() % holding.size());
                        cluster.replay(
                                StateRecord.JobEnded.unrequested(j.id(), JobState.COMPLETED, 0, JobReason.NONE, now));
                    }
                }
                default -> pass();
            }
            check();
        }
        boolean suspended =
                state.image().jobs().stream().anyMatch(j -> j.status().state() == JobState.SUSPENDED);
        net.jqwik.api.statistics.Statistics.collect(suspended ? "ends with a suspended job" : "none suspended");
    }

    private void check() {
        List<Job> jobs = state.image().jobs().stream().filter(Job::isRunning).toList();
        for (String n : List.of("n1", "n2")) {
            int cpus = 0;
            Set<Integer> cores = new HashSet<>();
            for (Job j : jobs) {
                if (!j.holdsNodes()) {
                    continue;
                }
                for (Allocation.NodeShare s : j.allocation().nodes()) {
                    if (s.node().equals(n)) {
                        cpus += s.cpus();
                        for (int c : s.cores()) {
                            assertThat(cores.add(c))
                                    .as("core %d of %s held twice", c, n)
                                    .isTrue();
                        }
                    }
                }
            }
            assertThat(cpus).isLessThanOrEqualTo(CPUS);
            assertThat(node(n).allocCpus()).isEqualTo(cpus);
        }
        for (Job s : jobs) {
            if (s.holdsNodes()) {
                continue;
            }
            assertThat(s.suspension().byPreemption()).isTrue();
            for (Job r : jobs) {
                if (r.holdsNodes() && shareCores(s, r)) {
                    assertThat(TIERS.get(r.terms().partition()))
                            .as("job %d on the cores of suspended job %d", r.id(), s.id())
                            .isGreaterThan(TIERS.get(s.terms().partition()));
                }
            }
        }
    }

    private static boolean shareCores(Job a, Job b) {
        for (Allocation.NodeShare x : a.allocation().nodes()) {
            for (Allocation.NodeShare y : b.allocation().nodes()) {
                if (x.node().equals(y.node()) && x.cores().stream().anyMatch(y.cores()::contains)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.of("low", "low", "mid", "high"),
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.integers().between(0, 20))
                .as(Step::new)
                .list()
                .ofMinSize(5)
                .ofMaxSize(40);
    }
}
