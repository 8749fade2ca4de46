package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static dev.sluice.ctld.queue.PriorityWeightsBuilder.multifactor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.queue.PriorityWeights;
import dev.sluice.ctld.queue.QosPriorities;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scheduling passes over small clusters: backfill, arrays, dependencies, holds, priority. */
class TestScheduler {
    private static final long NOW = 1_000_000;
    private static final Scheduler.SelectDefaults SELECT = Scheduler.SelectDefaults.DEFAULT;

    private ClusterState state;
    private ClusterFixture cluster;

    private void cluster(int nodes, int cpus) {
        cluster = ClusterFixture.idle(nodes, cpus, NOW);
        state = cluster.state();
    }

    private int submit(JobRequest request, long limitMinutes) {
        return cluster.submit(request, "p", limitMinutes, NOW - 10);
    }

    private void run(int id, String node, int cpus, long startedSecondsAgo) {
        cluster.replay(new StateRecord.JobStarted(
                id,
                new Allocation(List.of(Allocation.NodeShare.of(node, cpus, 0, 1))),
                "p",
                state.job(id).terms().timeLimitMinutes(),
                NOW - startedSecondsAgo));
    }

    private SchedulePlan schedule(SchedulerConfig config) {
        return new Scheduler(config).schedule(state.image(), NOW);
    }

    private static SchedulerConfig backfill(int depth) {
        return SchedulerConfig.builder(SELECT).reservationDepth(depth).build();
    }

    private static List<Integer> started(SchedulePlan plan) {
        return plan.starts().stream().map(SchedulePlan.Start::jobId).toList();
    }

    @Test
    void backfillStartsShortJobsThatDoNotDelayTheReservation() {
        cluster(2, 4);
        int a = submit(aJob().cpusPerTask(4).build(), 60);
        run(a, "n1", 4, 0);
        int wide = submit(aJob().nodes(2).cpusPerTask(4).build(), 60);
        int shortJob = submit(aJob().cpusPerTask(4).build(), 30);
        int longJob = submit(aJob().cpusPerTask(4).build(), 120);

        SchedulePlan plan = schedule(backfill(1));
        assertThat(started(plan)).containsExactly(shortJob);
        assertThat(plan.pendingReasons())
                .containsEntry(wide, JobReason.RESOURCES)
                .containsEntry(longJob, JobReason.PRIORITY);
        assertThat(plan.expectedStarts()).containsEntry(wide, NOW + 3600);
        assertThat(plan.details().get(wide))
                .isEqualTo("needs 2 node(s) with cpu=4 each; 1 of 2 node(s) qualify now, 1 too busy;"
                        + " best node n2 has cpu=4 free");

        // Beyond the backfill depth (one reservation, made for `wide`), no ReasonDetail is worked out.
        assertThat(plan.details()).containsKey(wide).doesNotContainKey(longJob);
        assertThat(schedule(backfill(5)).details()).containsKeys(wide, longJob);

        SchedulePlan builtin = schedule(SchedulerConfig.builder(SELECT)
                .backfill(false)
                .reservationDepth(0)
                .build());
        assertThat(started(builtin)).isEmpty();
        assertThat(builtin.pendingReasons()).containsEntry(shortJob, JobReason.PRIORITY);
    }

    @Test
    void conservativeDepthReservesForLowerJobsToo() {
        cluster(2, 4);
        int a = submit(aJob().cpusPerTask(4).build(), 60);
        run(a, "n1", 4, 0);
        int wide = submit(aJob().nodes(2).cpusPerTask(4).build(), 60);
        int later = submit(aJob().cpusPerTask(4).build(), 120);
        assertThat(schedule(backfill(1)).expectedStarts()).containsOnlyKeys(wide);
        assertThat(schedule(backfill(10)).expectedStarts())
                .containsEntry(wide, NOW + 3600)
                .containsEntry(later, NOW + 7200);
    }

    @Test
    void arrayTasksStartUpToTheThrottle() {
        cluster(4, 1);
        int array = submit(aJob().array("0-3%2").build(), 10);
        SchedulePlan plan = schedule(backfill(1));
        assertThat(plan.starts()).extracting(SchedulePlan.Start::taskId).containsExactly(0, 1);
        assertThat(plan.starts()).allSatisfy(s -> assertThat(s.jobId()).isEqualTo(array));
        assertThat(plan.pendingReasons()).containsEntry(array, JobReason.JOB_ARRAY_TASK_LIMIT);
    }

    @Test
    void arrayTasksSplitOffAndTheLastKeepsTheArrayId() {
        cluster(1, 1);
        int array = submit(aJob().array("1-2").build(), 10);
        int newId = state.nextJobId();
        cluster.replay(new StateRecord.ArrayTaskSplit(array, 1, newId, NOW));
        assertThat(state.job(newId).displayId()).isEqualTo(array + "_1");
        assertThat(state.job(array).displayId()).isEqualTo(array + "_[2]");
        cluster.replay(new StateRecord.ArrayTaskSplit(array, 2, array, NOW));
        assertThat(state.job(array).displayId()).isEqualTo(array + "_2");
    }

    @Test
    void dependenciesWaitThenPassOrNeverPass() {
        cluster(2, 1);
        int first = submit(aJob().build(), 10);
        run(first, "n1", 1, 5);
        int ok = submit(aJob().dependency("afterok:" + first, false).build(), 10);
        int notOk = submit(aJob().dependency("afternotok:" + first, false).build(), 10);
        int killed = submit(aJob().dependency("afternotok:" + first, true).build(), 10);
        SchedulePlan waiting = schedule(backfill(1));
        assertThat(waiting.pendingReasons())
                .containsEntry(ok, JobReason.DEPENDENCY)
                .containsEntry(notOk, JobReason.DEPENDENCY)
                .containsEntry(killed, JobReason.DEPENDENCY);

        cluster.replay(StateRecord.JobEnded.unrequested(first, JobState.COMPLETED, 0, JobReason.NONE, NOW));
        SchedulePlan after = schedule(backfill(1));
        assertThat(started(after)).containsExactly(ok);
        assertThat(after.pendingReasons()).containsEntry(notOk, JobReason.DEPENDENCY_NEVER_SATISFIED);
        assertThat(after.cancels()).containsExactly(killed);
    }

    /** corr1's tasks split off, each run on its own node: task 0 ok, task 1 failed, task 2 running. */
    private int correlatedTargets() {
        int corr1 = submit(aJob().array("0-2").build(), 10);
        int[] ids = {state.nextJobId(), state.nextJobId() + 1, corr1};
        for (int task = 0; task < 3; task++) {
            cluster.replay(new StateRecord.ArrayTaskSplit(corr1, task, ids[task], NOW));
            run(ids[task], "n" + (task + 1), 1, 5);
        }
        cluster.replay(StateRecord.JobEnded.unrequested(ids[0], JobState.COMPLETED, 0, JobReason.NONE, NOW));
        cluster.replay(StateRecord.JobEnded.unrequested(ids[1], JobState.FAILED, 256, JobReason.NONE, NOW));
        return corr1;
    }

    @Test
    void aftercorrTasksWaitEachForItsOwnPartner() {
        // Real Slurm 22.05 ran tasks 0 and 2 of an aftercorr array whose partner task 1 had
        // failed, and kept task 1 pending DependencyNeverSatisfied (compat 295).
        cluster(4, 1);
        int corr1 = correlatedTargets();
        int corr2 = submit(
                aJob().array("0-2").dependency("aftercorr:" + corr1, false).build(), 10);
        SchedulePlan plan = schedule(backfill(1));
        assertThat(plan.starts()).extracting(SchedulePlan.Start::taskId).containsExactly(0);
        assertThat(plan.pendingReasons()).containsEntry(corr2, JobReason.DEPENDENCY_NEVER_SATISFIED);

        cluster.replay(StateRecord.JobEnded.unrequested(corr1, JobState.COMPLETED, 0, JobReason.NONE, NOW));
        SchedulePlan later = schedule(backfill(1));
        assertThat(later.starts()).extracting(SchedulePlan.Start::taskId).containsExactly(0, 2);
        assertThat(later.pendingReasons()).containsEntry(corr2, JobReason.DEPENDENCY_NEVER_SATISFIED);
    }

    @Test
    void singletonWaitsForTheSameNameAndUser() {
        cluster(2, 1);
        int first = submit(aJob().name("solo").build(), 10);
        run(first, "n1", 1, 5);
        int second = submit(aJob().name("solo").dependency("singleton", false).build(), 10);
        int other = submit(
                aJob().name("solo").uid(2000).dependency("singleton", false).build(), 10);
        SchedulePlan plan = schedule(backfill(1));
        assertThat(plan.pendingReasons()).containsEntry(second, JobReason.DEPENDENCY);
        assertThat(started(plan)).containsExactly(other);
    }

    @Test
    void heldAndNotYetEligibleJobsWait() {
        cluster(1, 2);
        int held = submit(aJob().hold().build(), 10);
        int later = submit(aJob().begin(NOW + 600).build(), 10);
        int admin = submit(aJob().build(), 10);
        cluster.replay(new StateRecord.JobHoldChanged(admin, Job.Hold.ADMIN, NOW));
        SchedulePlan plan = schedule(backfill(1));
        assertThat(started(plan)).isEmpty();
        assertThat(plan.pendingReasons())
                .containsEntry(held, JobReason.JOB_HELD_USER)
                .containsEntry(later, JobReason.BEGIN_TIME)
                .containsEntry(admin, JobReason.JOB_HELD_ADMIN);
        // Slurm holds a job by giving it priority 0 (squeue %Q of an sbatch -H job, 22.05).
        assertThat(plan.priorities()).containsEntry(held, 0L).containsEntry(admin, 0L);
        assertThat(plan.priorities().get(later)).isPositive();
        cluster.replay(new StateRecord.JobHoldChanged(held, Job.Hold.NONE, NOW));
        assertThat(started(schedule(backfill(1)))).containsExactly(held);
    }

    @Test
    void timeOverThePartitionLimitWaits() {
        cluster = ClusterFixture.aCluster()
                .cpus(1)
                .partitions(names -> List.of(dev.sluice.ctld.state.Partition.builder("p")
                        .nodes(names)
                        .isDefault(true)
                        .limits(new dev.sluice.ctld.state.Partition.Limits(
                                60, JobRequest.TIME_NOT_SET, dev.sluice.ctld.state.Partition.NODES_UNLIMITED, 0))
                        .build()))
                .at(NOW - 100, NOW)
                .build();
        state = cluster.state();
        int tooLong = submit(aJob().build(), 120);
        assertThat(schedule(backfill(1)).pendingReasons()).containsEntry(tooLong, JobReason.PARTITION_TIME_LIMIT);
    }

    @Test
    void multifactorPriorityPutsNiceJobsLast() {
        cluster(1, 1);
        int busy = submit(aJob().build(), 10);
        run(busy, "n1", 1, 5);
        PriorityWeights weights = multifactor().age(1000).partition(1000).build();
        SchedulerConfig config = SchedulerConfig.builder(SELECT)
                .reservationDepth(10)
                .priority(weights)
                .build();
        int plain = submit(aJob().build(), 10);
        cluster.replay(new StateRecord.JobUpdated(plain, List.of(new JobChange.Nice(500)), NOW));
        int eager = submit(aJob().build(), 10);
        SchedulePlan plan = schedule(config);
        assertThat(plan.priorities().get(eager)).isGreaterThan(plan.priorities().get(plain));
        assertThat(plan.pendingReasons())
                .containsEntry(eager, JobReason.RESOURCES)
                .containsEntry(plain, JobReason.PRIORITY);
    }

    @Test
    void qosFactorIsTheJobsQosPriorityOverTheLargest() {
        // priority/multifactor (Slurm's priority_multifactor docs): PriorityWeightQOS x the QOS
        // priority normalised by the highest QOS priority; a job without --qos is in "normal".
        cluster(1, 1);
        int busy = submit(aJob().build(), 10);
        run(busy, "n1", 1, 5);
        PriorityWeights weights = multifactor().qos(1000).build();
        QosPriorities qos = new QosPriorities(java.util.Map.of("normal", 0L, "low", 50L, "high", 200L));
        SchedulerConfig config = SchedulerConfig.builder(SELECT)
                .reservationDepth(10)
                .priority(weights)
                .qos(qos)
                .build();
        int plain = submit(aJob().build(), 10);
        int low = submit(aJob().qos("low").build(), 10);
        int high = submit(aJob().qos("high").build(), 10);
        int unknown = submit(aJob().qos("nosuch").build(), 10);
        SchedulePlan plan = schedule(config);
        assertThat(plan.priorities())
                .containsEntry(high, 1000L)
                .containsEntry(low, 250L)
                .containsEntry(plain, 1L)
                .containsEntry(unknown, 1L);
        assertThat(plan.pendingReasons())
                .containsEntry(high, JobReason.RESOURCES)
                .containsEntry(low, JobReason.PRIORITY);
        // Without a QOS table (the controller today) every QOS factor is 0.
        SchedulePlan defaults = schedule(SchedulerConfig.builder(SELECT)
                .reservationDepth(10)
                .priority(weights)
                .build());
        assertThat(defaults.priorities()).containsEntry(high, 1L);
    }
}
