package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitedCluster.LIMITS;
import static dev.sluice.ctld.limits.LimitedCluster.job;
import static dev.sluice.ctld.limits.LimitedCluster.pending;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.Job;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A QOS's MaxTRESPerNode (what a job asks divided by its least node count, whole numbers; compat
 * 230, 231) and its UsageThreshold under the flag EnforceUsageThreshold (compat 232). Two nodes
 * of 8 CPUs, 16000 MB and 2 GPUs each.
 */
class TestQosPerNodeAndThreshold {
    private LimitedCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = LimitedCluster.withGpus();
    }

    /** Account physics under root, user1000 in it; QOS normal as {@code qos} makes it. */
    static AccountingPolicy policy(Qos normal) {
        return LimitedCluster.policy()
                .qos(normal)
                .account("physics")
                .user("user1000", "physics")
                .build();
    }

    static AccountingPolicy perNode(String caps) {
        return policy(
                Qos.builder("normal").maxTresPerNode(TresLimits.parse(caps)).build());
    }

    @Test
    void aJobAskingMoreCpusPerNodeThanTheCapWaitsWhileOneSpreadOverNodesRuns() {
        AccountingPolicy p = perNode("cpu=2");
        int fourOnOne = cluster.submit(p, job().nodes(1).tasks(4).build());
        int threeAnywhere = cluster.submit(p, job().tasks(3).build());
        int fourOnTwo = cluster.submit(p, job().nodes(2).tasks(4).build());
        int two = cluster.submit(p, job().tasks(2).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(fourOnTwo, two);
        assertThat(plan.pendingReasons())
                .containsEntry(fourOnOne, JobReason.QOS_MAX_CPU_PER_NODE)
                .containsEntry(threeAnywhere, JobReason.QOS_MAX_CPU_PER_NODE);
        assertThat(JobReason.QOS_MAX_CPU_PER_NODE.slurmName()).isEqualTo("QOSMaxCpuPerNode");
    }

    @Test
    void gpusAndMemoryPerNodeHaveTheirOwnReasons() {
        AccountingPolicy p = perNode("gres/gpu=1,mem=1000");
        int twoGpus = cluster.submit(p, job().gres("gpu:2").build());
        int bigMemory = cluster.submit(p, job().memPerNode(2000).build());
        int gpuEachOnTwo = cluster.submit(p, job().nodes(2).gres("gpu:1").build());
        int withinBoth = cluster.submit(p, job().gres("gpu:1").memPerNode(1000).build());
        SchedulePlan plan = cluster.pass(p);
        // Memory is consumable on this cluster: the allocation holds it, so it counts.
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(gpuEachOnTwo, withinBoth);
        assertThat(plan.pendingReasons())
                .containsEntry(twoGpus, JobReason.QOS_MAX_GRES_PER_NODE)
                .containsEntry(bigMemory, JobReason.QOS_MAX_MEMORY_PER_NODE);
        assertThat(JobReason.QOS_MAX_GRES_PER_NODE.slurmName()).isEqualTo("QOSMaxGRESPerNode");
        assertThat(JobReason.QOS_MAX_MEMORY_PER_NODE.slurmName()).isEqualTo("QOSMaxMemoryPerNode");
    }

    /** Without CR_*_Memory an allocation holds no memory, so Slurm finds none over the cap (compat 231). */
    @Test
    void memoryPerNodeCountsOnlyWhereMemoryIsConsumable() {
        AccountingPolicy p = perNode("mem=1000");
        Job job = pending(
                1, job().account("physics").qos("normal").memPerNode(2000).build());
        assertThat(LimitGate.perNode(LIMITS, p, job, true)).isEqualTo(JobReason.QOS_MAX_MEMORY_PER_NODE);
        assertThat(LimitGate.perNode(LIMITS, p, job, false)).isNull();
    }

    @Test
    void perNodeCountsAreWholeNumbersAsSlurmDividesThem() {
        // 3 CPUs over 2 nodes is 1 per node to Slurm, however the tasks land.
        Job job = pending(
                1, job().account("physics").qos("normal").nodes(2).tasks(3).build());
        AccountingPolicy p = perNode("cpu=1");
        assertThat(LimitGate.perNode(LIMITS, p, job, true)).isNull();
        Job wide = pending(
                2, job().account("physics").qos("normal").nodes(2).tasks(4).build());
        assertThat(LimitGate.perNode(LIMITS, p, wide, true)).isEqualTo(JobReason.QOS_MAX_CPU_PER_NODE);
    }

    @Test
    void withoutLimitsEnforcedThePerNodeCapIsNotChecked() {
        AccountingPolicy p = perNode("cpu=1");
        Job job = pending(1, job().account("physics").qos("normal").tasks(4).build());
        Enforcement assocOnly = Enforcement.parse(List.of("associations"));
        assertThat(LimitGate.perNode(assocOnly, p, job, true)).isNull();
        assertThat(LimitGate.perNode(LIMITS, p, job, true)).isEqualTo(JobReason.QOS_MAX_CPU_PER_NODE);
    }

    @Test
    void underPriorityBasicOnlyAThresholdAboveOneHoldsTheJob() {
        AccountingPolicy within = policy(Qos.builder("normal").usageThreshold(1).build());
        int runs = cluster.submit(within, job().tasks(1).build());
        assertThat(cluster.pass(within).starts())
                .extracting(SchedulePlan.Start::jobId)
                .containsExactly(runs);
        AccountingPolicy p = policy(Qos.builder("normal").usageThreshold(1.5).build());
        int held = cluster.submit(p, job().tasks(2).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).isEmpty();
        assertThat(plan.pendingReasons()).containsEntry(held, JobReason.QOS_USAGE_THRESHOLD);
        assertThat(JobReason.QOS_USAGE_THRESHOLD.slurmName()).isEqualTo("QOSUsageThreshold");
    }

    @Test
    void theThresholdComparesTheAssociationsFairShare() {
        AccountingPolicy p = policy(Qos.builder("normal").usageThreshold(0.5).build());
        Job job = pending(1, job().account("physics").qos("normal").build());
        assertThat(UsageThreshold.reason(p, job, 0.4)).isEqualTo(JobReason.QOS_USAGE_THRESHOLD);
        assertThat(UsageThreshold.reason(p, job, 0.5)).isNull();
        assertThat(UsageThreshold.reason(p, job, 0.9)).isNull();
    }

    @Test
    void aQosWithoutAnEnforcedThresholdOrAJobWithoutAssociationIsNotHeld() {
        AccountingPolicy none = policy(Qos.builder("normal").build());
        Job job = pending(1, job().account("physics").qos("normal").build());
        assertThat(UsageThreshold.reason(none, job, 0)).isNull();
        AccountingPolicy flagged =
                policy(Qos.builder("normal").usageThreshold(0.5).build());
        Job stranger = pending(2, job().account("chem").qos("normal").build());
        assertThat(UsageThreshold.reason(flagged, stranger, 0)).isNull();
    }
}
