package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitedCluster.LIMITS;
import static dev.sluice.ctld.limits.LimitedCluster.job;
import static dev.sluice.ctld.limits.LimitedCluster.pending;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.Job;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A QOS's MaxTRESPerAccount: the running jobs of each account under the QOS together stay within
 * it, every account on its own, and a job that would pass it waits with Slurm 22.05's reason
 * (MaxCpuPerAccount, MaxMemoryPerAccount, MaxNodePerAccount, MaxGRESPerAccount; compat 196).
 * Two nodes of 8 CPUs, 16000 MB and 2 GPUs each.
 */
class TestQosAccountLimits {
    private LimitedCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = LimitedCluster.withGpus();
    }

    /** Accounts physics and chem under root, user1000 in both; QOS normal with {@code perAccount}. */
    static AccountingPolicy policy(String perAccount) {
        Qos normal = Qos.builder("normal")
                .maxTresPerAccount(TresLimits.parse(perAccount))
                .build();
        return new AccountingPolicy(
                1,
                List.of(
                        Association.builder("root").qos(List.of("normal")).build(),
                        Association.builder("physics").parent("root").build(),
                        Association.builder("chem").parent("root").build(),
                        Association.builder("physics")
                                .user("user1000")
                                .parent("physics")
                                .build(),
                        Association.builder("physics")
                                .user("user1001")
                                .parent("physics")
                                .build(),
                        Association.builder("chem")
                                .user("user1000")
                                .parent("chem")
                                .build()),
                Map.of("user1000", "physics", "user1001", "physics"),
                Map.of("normal", normal),
                UserWckeys.NONE);
    }

    /** A job that leaves room on its node for others (memory is consumable here). */
    @Test
    void theJobThatWouldTakeItsAccountPastTheCapWaitsWhileOthersStart() {
        AccountingPolicy p = policy("cpu=4");
        int three = cluster.submit(p, job().account("physics").tasks(3).build());
        int two = cluster.submit(p, job().account("physics").tasks(2).uid(1001).build());
        int otherAccount = cluster.submit(p, job().account("chem").tasks(4).build());
        int one = cluster.submit(p, job().account("physics").tasks(1).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(three, otherAccount, one);
        assertThat(plan.pendingReasons()).containsEntry(two, JobReason.MAX_CPU_PER_ACCOUNT);
    }

    @Test
    void everyTresHasItsOwnReason() {
        everyTresHasItsOwnReason(
                cluster,
                policy("mem=1000,node=1,gres/gpu=1"),
                JobReason.MAX_MEMORY_PER_ACCOUNT,
                JobReason.MAX_NODE_PER_ACCOUNT,
                JobReason.MAX_GRES_PER_ACCOUNT);
        assertThat(JobReason.MAX_CPU_PER_ACCOUNT.slurmName()).isEqualTo("MaxCpuPerAccount");
    }

    /**
     * Under {@code p}, capped at 1000 MB, one node and one GPU: a job over each cap waits with
     * that cap's reason.
     */
    static void everyTresHasItsOwnReason(
            LimitedCluster cluster, AccountingPolicy p, JobReason mem, JobReason node, JobReason gres) {
        int overMem =
                cluster.submit(p, job().account("physics").memPerNode(2000).build());
        int overNodes = cluster.submit(p, job().account("physics").nodes(2).build());
        int overGpus = cluster.submit(p, job().account("physics").gres("gpu:2").build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).isEmpty();
        assertThat(plan.pendingReasons())
                .containsEntry(overMem, mem)
                .containsEntry(overNodes, node)
                .containsEntry(overGpus, gres);
    }

    @Test
    void onlyJobsOfTheSameQosCountAgainstIt() {
        AccountingPolicy capped = policy("cpu=2");
        Qos other = Qos.builder("other").build();
        AccountingPolicy p = new AccountingPolicy(
                1,
                capped.associations().stream()
                        .map(a -> a.account().equals("root")
                                ? Association.builder("root")
                                        .qos(List.of("normal", "other"))
                                        .build()
                                : a)
                        .toList(),
                capped.defaultAccounts(),
                Map.of("normal", capped.qos().get("normal"), "other", other),
                UserWckeys.NONE);
        int big =
                cluster.submit(p, job().account("physics").qos("other").tasks(6).build());
        int small = cluster.submit(
                p, job().account("physics").qos("normal").tasks(2).build());
        int more = cluster.submit(
                p, job().account("physics").qos("normal").tasks(1).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(big, small);
        assertThat(plan.pendingReasons()).containsEntry(more, JobReason.MAX_CPU_PER_ACCOUNT);
    }

    @Test
    void withoutLimitsEnforcedTheCapIsNotChecked() {
        AccountingPolicy p = policy("cpu=1");
        Job job = pending(1, job().account("physics").qos("normal").tasks(4).build());
        Enforcement assocOnly = Enforcement.parse(List.of("associations"));
        assertThat(LimitGate.reason(assocOnly, p, LimitUsage.of(p, List.of()), job))
                .isNull();
        assertThat(LimitGate.reason(LIMITS, p, LimitUsage.of(p, List.of()), job))
                .isEqualTo(JobReason.MAX_CPU_PER_ACCOUNT);
    }
}
