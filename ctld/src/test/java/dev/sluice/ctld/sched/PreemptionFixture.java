package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Enforcement;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;

/**
 * The cluster and the scheduling pass the preemption tests share: nodes of 4 CPUs, partitions
 * low (tier 1, REQUEUE), mid (tier 1, CANCEL) and high (tier 2).
 */
abstract class PreemptionFixture {
    static final long NOW = 1_000_000;
    static final int CPUS = 4;

    ClusterState state;
    ClusterFixture cluster;

    /** Nodes n1..nN of 4 CPUs; partitions low (tier 1, REQUEUE), mid (tier 1), high (tier 2). */
    void cluster(int nodes) {
        cluster = ClusterFixture.aCluster()
                .nodes(nodes)
                .cpus(CPUS)
                .partitions(names -> List.of(
                        partition("low", names, 1, "REQUEUE"),
                        partition("mid", names, 1, "CANCEL"),
                        partition("high", names, 2, "CANCEL")))
                .at(NOW - 1000, NOW)
                .build();
        state = cluster.state();
    }

    static Partition partition(String name, List<String> nodes, int tier, String mode) {
        return Partition.builder(name)
                .nodes(nodes)
                .isDefault(name.equals("low"))
                .priorityTier(tier)
                .preemptMode(mode)
                .build();
    }

    int submit(String partition, JobRequest request) {
        return cluster.submit(request, partition, 60, NOW - 500);
    }

    /** A job running since {@code since} on the CPUs of one node. */
    int running(String partition, String node, int cpus, long since, JobRequest request) {
        int id = submit(partition, request);
        cluster.replay(new StateRecord.JobStarted(
                id, new Allocation(List.of(Allocation.NodeShare.of(node, cpus, 0, 1))), partition, 60, since));
        return id;
    }

    static PreemptPolicy partitionPrio(long exemptSeconds) {
        return PreemptPolicy.withoutGang(
                PreemptPolicy.Type.PARTITION_PRIO,
                PreemptMode.REQUEUE,
                Map.of("low", PreemptMode.REQUEUE, "mid", PreemptMode.CANCEL),
                exemptSeconds,
                121);
    }

    SchedulePlan schedule(PreemptPolicy policy, AccountingPolicy accounting) {
        return schedule(state, NOW, policy, accounting);
    }

    /** One scheduling pass over {@code state} at {@code now} with {@code policy} and no limits enforced. */
    static SchedulePlan schedule(ClusterState state, long now, PreemptPolicy policy, AccountingPolicy accounting) {
        SchedulerConfig config = SchedulerConfig.builder(Scheduler.SelectDefaults.DEFAULT)
                .reservationDepth(10)
                .preempt(policy)
                .build();
        return new Scheduler(config).schedule(state.image(), now, Enforcement.NONE, accounting);
    }

    SchedulePlan schedule(PreemptPolicy policy) {
        return schedule(policy, AccountingPolicy.EMPTY);
    }

    static List<Integer> victims(SchedulePlan plan) {
        return plan.preemptions().stream().map(SchedulePlan.Preempt::jobId).toList();
    }

    /** One node; partition "low" (tier 1) gives its preempted jobs a GraceTime of 10 s. */
    void gracedCluster() {
        gracedCluster("CANCEL");
    }

    void gracedCluster(String lowMode) {
        Partition graced = Partition.builder("low")
                .nodes(List.of("n1"))
                .isDefault(true)
                .preemptMode(lowMode)
                .graceTimeSeconds(10)
                .build();
        cluster = ClusterFixture.aCluster()
                .cpus(CPUS)
                .partitions(names -> List.of(graced, partition("high", names, 2, "CANCEL")))
                .at(NOW - 1000, NOW)
                .build();
    }
}
