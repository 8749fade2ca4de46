package dev.sluice.ctld.queue;

import static dev.sluice.ctld.Builders.aJob;
import static dev.sluice.ctld.queue.PriorityWeightsBuilder.multifactor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * priority/multifactor's factors as sprio shows them and the scheduler orders by. The numbers
 * are real Slurm 22.05's (two nodes of 4 CPUs; PriorityWeightAge=1000, Fairshare=10000,
 * JobSize=100, Partition=1000): -N2 has job size 0.625 and priority 11062, -n2 0.375 and 11037.
 */
class TestPriorityFactors {
    private static final long NOW = 1_000_000;
    private static final PriorityWeights W = multifactor()
            .age(1000)
            .fairshare(10000)
            .jobSize(100)
            .partition(1000)
            .build();

    private ClusterState state;
    private long seq;

    private void cluster() {
        state = ClusterFixture.aCluster().nodes(2).configured();
    }

    private int submit(JobRequest request) {
        int id = state.nextJobId();
        state.replay(++seq, new StateRecord.JobSubmitted(id, request, "p", 10, NOW));
        return id;
    }

    @Test
    void jobSizeIsTheMeanOfTheNodeAndCpuFractionsAndTheSumIsTruncated() {
        cluster();
        int wide = submit(aJob().nodes(2).exclusive().build());
        int two = submit(aJob().tasks(2).build());
        int one = submit(aJob().tasks(1).build());
        Map<Integer, PriorityFactors> f = Priorities.factors(state.image(), W, QosPriorities.DEFAULT, NOW);
        assertThat(f.get(wide).jobSize()).isEqualTo(0.625);
        assertThat(f.get(two).jobSize()).isEqualTo(0.375);
        assertThat(f.get(one).jobSize()).isEqualTo(0.3125);
        assertThat(f.get(wide).priority()).isEqualTo(11062);
        assertThat(f.get(two).priority()).isEqualTo(11037);
        assertThat(f.get(two).sum()).isEqualTo(11037.5);
        assertThat(f.get(one).fairshare()).isEqualTo(1.0);
        assertThat(f.get(one).partition()).isEqualTo(1.0);
        assertThat(Priorities.compute(state.image(), W, NOW)).containsEntry(wide, 11062L);
    }

    @Test
    void niceLowersThePriorityHeldAndBasicJobsHaveNoFactors() {
        cluster();
        int nice = submit(aJob().tasks(1).build());
        state.replay(++seq, new StateRecord.JobUpdated(nice, List.of(new JobChange.Nice(100)), NOW));
        int held = submit(aJob().hold().build());
        Map<Integer, PriorityFactors> f = Priorities.factors(state.image(), W, QosPriorities.DEFAULT, NOW);
        assertThat(f.get(nice).nice()).isEqualTo(100);
        assertThat(f.get(nice).priority()).isEqualTo(11031 - 100);
        assertThat(f).doesNotContainKey(held);
        assertThat(Priorities.factors(state.image(), PriorityWeights.BASIC, QosPriorities.DEFAULT, NOW))
                .isEmpty();
    }

    @Test
    void everyUserWithAJobInTheTableHoldsOneShareHoweverTheirJobsInterleave() {
        cluster();
        int ran = submit(aJob().uid(1000).tasks(4).build());
        state.replay(
                ++seq,
                new StateRecord.JobStarted(
                        ran, new Allocation(List.of(Allocation.NodeShare.of("n1", 4, 0, 4))), "p", 10, NOW - 100));
        submit(aJob().uid(2000).build());
        submit(aJob().uid(1000).build());
        submit(aJob().uid(3000).build());
        submit(aJob().uid(2000).build());
        // Three users, each a third of the shares; user1000 has all the usage: 2^(-1 / (1/3)).
        FairShare fs = FairShare.of(state.image(), W, NOW);
        assertThat(fs.factorOf("user1000")).isCloseTo(0.125, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(fs.factorOf("user2000")).isEqualTo(1.0);
    }

    @Test
    void usageLowersTheFairShareOfItsUser() {
        cluster();
        int ran = submit(aJob().uid(1000).tasks(4).build());
        state.replay(
                ++seq,
                new StateRecord.JobStarted(
                        ran, new Allocation(List.of(Allocation.NodeShare.of("n1", 4, 0, 4))), "p", 10, NOW - 100));
        int mine = submit(aJob().uid(1000).build());
        int theirs = submit(aJob().uid(2000).build());
        Map<Integer, PriorityFactors> f = Priorities.factors(state.image(), W, QosPriorities.DEFAULT, NOW);
        assertThat(f.get(mine).fairshare()).isLessThan(f.get(theirs).fairshare());
        assertThat(f.get(theirs).fairshare()).isEqualTo(1.0);
        FairShare fs = FairShare.of(state.image(), W, NOW);
        assertThat(fs.usageOf("user1000")).isEqualTo(400.0);
        assertThat(fs.factorOf("user1000")).isEqualTo(f.get(mine).fairshare());
        // Charged at the priority calculations only (Slurm 22.05, scenario 227: right after a
        // job, sshare shows no usage): from a start at NOW - 250, the last one was at NOW - 250
        // (PriorityCalcPeriod 5 minutes), before the job started: nothing yet; 5 minutes after
        // the start, the 4 CPUs' 150 seconds from NOW - 100 to NOW + 50.
        assertThat(FairShare.of(state.image(), W.withCalcEpoch(NOW - 250), NOW).usageOf("user1000"))
                .isZero();
        assertThat(FairShare.of(state.image(), W.withCalcEpoch(NOW - 250), NOW + 60)
                        .usageOf("user1000"))
                .isCloseTo(600.0, org.assertj.core.data.Offset.offset(0.1));
    }

    /**
     * priority/basic: the first job 4294901759, each later one one less; a held job 0, a held job
     * cancelled still 0; a running job keeps its number. Worked out when read, the map is every
     * job of the image and nothing else, and equal to the same entries in any map.
     */
    @Test
    void basicPrioritiesAreEveryJobsNumberByAgeAndZeroWhenHeld() {
        cluster();
        int first = submit(aJob().tasks(1).build());
        int held = submit(aJob().hold().build());
        int heldThenCancelled = submit(aJob().hold().build());
        state.replay(
                ++seq,
                new StateRecord.JobEnded(
                        heldThenCancelled,
                        dev.sluice.common.slurm.JobState.CANCELLED,
                        0,
                        dev.sluice.common.slurm.JobReason.NONE,
                        NOW,
                        StateRecord.JobEnded.NOBODY));
        int running = submit(aJob().tasks(4).build());
        state.replay(
                ++seq,
                new StateRecord.JobStarted(
                        running, new Allocation(List.of(Allocation.NodeShare.of("n1", 4, 0, 4))), "p", 10, NOW));
        Map<Integer, Long> p = Priorities.compute(state.image(), PriorityWeights.BASIC, NOW);
        Map<Integer, Long> expected = Map.of(
                first,
                Priorities.BASIC_TOP - first,
                held,
                0L,
                heldThenCancelled,
                0L,
                running,
                Priorities.BASIC_TOP - running);
        assertThat(p).isEqualTo(expected).hasSize(4);
        assertThat(expected).isEqualTo(p);
        assertThat(Map.copyOf(p)).isEqualTo(expected);
        assertThat(p.get(running + 1)).isNull();
        assertThat(p.getOrDefault(running + 1, 0L)).isZero();
        assertThat(BasicPriorities.immutable(p)).isSameAs(p);
    }

    /** priority/basic: an array's tasks, split off it with ids of their own, keep the array's number. */
    @Test
    void basicPrioritiesOfArrayTasksAreTheArrays() {
        cluster();
        int array = submit(aJob().array("0-2").build());
        int other = submit(aJob().build());
        int task0 = state.nextJobId();
        state.replay(++seq, new StateRecord.ArrayTaskSplit(array, 0, task0, NOW));
        Map<Integer, Long> p = Priorities.compute(state.image(), PriorityWeights.BASIC, NOW);
        assertThat(p)
                .containsEntry(array, Priorities.BASIC_TOP - array)
                .containsEntry(task0, Priorities.BASIC_TOP - array)
                .containsEntry(other, Priorities.BASIC_TOP - other);
    }

    /** Every factor is in [0, 1] and the priority is at least 1, whatever the job asks. */
    @Property(tries = 60)
    void factorsStayNormalized(
            @ForAll @IntRange(min = 1, max = 2) int nodes,
            @ForAll @IntRange(min = 1, max = 8) int tasks,
            @ForAll @IntRange(min = 0, max = 20000) int nice) {
        cluster();
        int id = submit(aJob().nodes(nodes).tasks(Math.max(tasks, nodes)).build());
        state.replay(++seq, new StateRecord.JobUpdated(id, List.of(new JobChange.Nice(nice)), NOW));
        PriorityFactors f = Priorities.factors(state.image(), W, QosPriorities.DEFAULT, NOW + 3600)
                .get(id);
        for (double v : new double[] {f.age(), f.fairshare(), f.jobSize(), f.partition(), f.qos()}) {
            assertThat(v).isBetween(0.0, 1.0);
        }
        assertThat(f.priority()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void theAgeIsTheOneAtTheLastCalculationNotAtTheMomentAsked() {
        // Slurm 22.05 (scenario 226): seconds after submission sprio -n shows AGE 0.0000000;
        // the factors are computed at submission and every PriorityCalcPeriod from the start.
        cluster();
        int job = submit(aJob().tasks(1).build());
        PriorityWeights started = W.withCalcEpoch(NOW - 100);
        assertThat(Priorities.factors(state.image(), started, QosPriorities.DEFAULT, NOW + 60)
                        .get(job)
                        .age())
                .isZero();
        assertThat(Priorities.factors(state.image(), started, QosPriorities.DEFAULT, NOW + 250)
                        .get(job)
                        .age())
                .isEqualTo(200 / (7.0 * 86400));
        // Without a known start the age is taken when asked.
        assertThat(Priorities.factors(state.image(), W, QosPriorities.DEFAULT, NOW + 60)
                        .get(job)
                        .age())
                .isEqualTo(60 / (7.0 * 86400));
    }

    @Test
    void aGivenFairShareTakesThePlaceOfTheUsageOne() {
        // Slurm 22.05 (scenario 226): sluiceuser1, in no association, gets FAIRSHARE 0.
        cluster();
        int member = submit(aJob().uid(0).tasks(1).build());
        int stranger = submit(aJob().uid(1000).tasks(1).build());
        Map<Integer, PriorityFactors> f = Priorities.factors(
                state.image(),
                W,
                QosPriorities.DEFAULT,
                j -> j.request().owner().uid() == 0 ? 1.0 : 0.0,
                NOW);
        assertThat(f.get(member).fairshare()).isEqualTo(1.0);
        assertThat(f.get(stranger).fairshare()).isZero();
        assertThat(f.get(stranger).priority()).isEqualTo(1031);
    }

    @Test
    void aStartedJobKeepsThePriorityItStartedWith() {
        // Slurm 22.05 (scenarios 226, 229): squeue %Q of a running job is its priority.
        assertThat(BasicPriorities.keepingStarted(Map.of(2, 5L), Map.of(1, 7L, 3, 9L), id -> id == 1))
                .containsExactlyInAnyOrderEntriesOf(Map.of(2, 5L, 1, 7L));
        assertThat(BasicPriorities.keepingStarted(Map.of(2, 5L), Map.of(), id -> true))
                .containsExactlyInAnyOrderEntriesOf(Map.of(2, 5L));
    }
}
