package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitedCluster.LIMITS;
import static dev.sluice.ctld.limits.LimitedCluster.job;
import static dev.sluice.ctld.limits.LimitedCluster.pending;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.Job;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An association's MaxTRESPerNode: its own or, without one, the nearest account's (compat 251,
 * 252), checked as a QOS's is and after it. Two nodes of 8 CPUs, 16000 MB and 2 GPUs each.
 */
class TestAssocPerNode {
    private LimitedCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = LimitedCluster.withGpus();
    }

    /** Account physics under root, user1000 in it, each with the MaxTRESPerNode given ("": none). */
    static AccountingPolicy policy(String account, String user, Qos normal) {
        return LimitedCluster.policy()
                .qos(normal)
                .account("physics", perNode(account))
                .user("user1000", "physics", perNode(user))
                .build();
    }

    private static Limits perNode(String caps) {
        return Limits.builder().maxTresPerNode(TresLimits.parse(caps)).build();
    }

    @Test
    void aUsersCapHoldsAJobAskingMoreCpusOnOneNode() {
        AccountingPolicy p = policy("", "cpu=2", Qos.builder("normal").build());
        int fourOnOne = cluster.submit(p, job().nodes(1).tasks(4).build());
        int threeAnywhere = cluster.submit(p, job().tasks(3).build());
        int fourOnTwo = cluster.submit(p, job().nodes(2).tasks(4).build());
        int two = cluster.submit(p, job().tasks(2).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(fourOnTwo, two);
        assertThat(plan.pendingReasons())
                .containsEntry(fourOnOne, JobReason.ASSOC_MAX_CPU_PER_NODE)
                .containsEntry(threeAnywhere, JobReason.ASSOC_MAX_CPU_PER_NODE);
        assertThat(JobReason.ASSOC_MAX_CPU_PER_NODE.slurmName()).isEqualTo("AssocMaxCpuPerNode");
    }

    @Test
    void aUserWithoutACapOfItsOwnTakesItsAccounts() {
        AccountingPolicy p = policy("gres/gpu=1", "", Qos.builder("normal").build());
        int twoGpus = cluster.submit(p, job().gres("gpu:2").build());
        int gpuEachOnTwo = cluster.submit(p, job().nodes(2).gres("gpu:1").build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(gpuEachOnTwo);
        assertThat(plan.pendingReasons()).containsEntry(twoGpus, JobReason.ASSOC_MAX_GRES_PER_NODE);
        assertThat(JobReason.ASSOC_MAX_GRES_PER_NODE.slurmName()).isEqualTo("AssocMaxGRESPerNode");
    }

    @Test
    void theUsersOwnCapOutranksItsAccounts() {
        AccountingPolicy p = policy("cpu=1", "cpu=4", Qos.builder("normal").build());
        Job three = pending(1, job().account("physics").qos("normal").tasks(3).build());
        Job five = pending(
                2, job().account("physics").qos("normal").nodes(1).tasks(5).build());
        assertThat(LimitGate.perNode(LIMITS, p, three, true)).isNull();
        assertThat(LimitGate.perNode(LIMITS, p, five, true)).isEqualTo(JobReason.ASSOC_MAX_CPU_PER_NODE);
    }

    @Test
    void memoryHasItsOwnReasonWhereItIsConsumable() {
        AccountingPolicy p = policy("", "mem=1000", Qos.builder("normal").build());
        Job job = pending(
                1, job().account("physics").qos("normal").memPerNode(2000).build());
        assertThat(LimitGate.perNode(LIMITS, p, job, true)).isEqualTo(JobReason.ASSOC_MAX_MEM_PER_NODE);
        assertThat(LimitGate.perNode(LIMITS, p, job, false)).isNull();
    }

    @Test
    void theQosCapIsCheckedFirst() {
        AccountingPolicy p = policy(
                "",
                "cpu=2",
                Qos.builder("normal").maxTresPerNode(TresLimits.parse("cpu=1")).build());
        Job two = pending(1, job().account("physics").qos("normal").tasks(2).build());
        assertThat(LimitGate.perNode(LIMITS, p, two, true)).isEqualTo(JobReason.QOS_MAX_CPU_PER_NODE);
    }
}
