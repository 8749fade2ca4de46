package dev.sluice.ctld.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
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
    private static final long NOW = 1_700_000_000L;
    private static final Scheduler.SelectDefaults SELECT = Scheduler.SelectDefaults.builder()
            .memoryConsumable(true)
            .gresNames(java.util.Set.of("gpu"))
            .build();
    private static final Enforcement LIMITS = Enforcement.parse(List.of("limits"));

    private ClusterState state;
    private long seq;

    @BeforeEach
    void cluster() {
        ClusterFixture cluster = ClusterFixture.aCluster()
                .nodes(2)
                .cpus(8)
                .memoryMb(16000)
                .gres(new GresInventory(List.of(
                        new GresUnit("gpu", "", 0, "/dev/nvidia0", List.of(), 1, true),
                        new GresUnit("gpu", "", 1, "/dev/nvidia1", List.of(), 1, true))))
                .at(NOW - 100, NOW)
                .build();
        state = cluster.state();
        seq = cluster.sequence();
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
                Map.of("normal", normal));
    }

    private int submit(AccountingPolicy p, JobRequest r) {
        ControlResult<Integer> out = JobControl.builder(SELECT)
                .maxArraySize(1000)
                .limits(new PolicyView(LIMITS, p))
                .build()
                .submit(state, r, NOW - 10);
        out.records().forEach(rec -> state.replay(++seq, rec));
        return out.response();
    }

    private SchedulePlan pass(AccountingPolicy p) {
        return new Scheduler(
                        SchedulerConfig.builder(SELECT).reservationDepth(10).build())
                .schedule(state.image(), NOW, LIMITS, p);
    }

    /** A job that leaves room on its node for others (memory is consumable here). */
    private static Builders.JobBuilder job() {
        return Builders.aJob().timeLimit(10).memPerNode(100);
    }

    @Test
    void theJobThatWouldTakeItsAccountPastTheCapWaitsWhileOthersStart() {
        AccountingPolicy p = policy("cpu=4");
        int three = submit(p, job().account("physics").tasks(3).build());
        int two = submit(p, job().account("physics").tasks(2).uid(1001).build());
        int otherAccount = submit(p, job().account("chem").tasks(4).build());
        int one = submit(p, job().account("physics").tasks(1).build());
        SchedulePlan plan = pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(three, otherAccount, one);
        assertThat(plan.pendingReasons()).containsEntry(two, JobReason.MAX_CPU_PER_ACCOUNT);
    }

    @Test
    void everyTresHasItsOwnReason() {
        AccountingPolicy p = policy("mem=1000,node=1,gres/gpu=1");
        int mem = submit(p, job().account("physics").memPerNode(2000).build());
        int nodes = submit(p, job().account("physics").nodes(2).build());
        int gpus = submit(p, job().account("physics").gres("gpu:2").build());
        SchedulePlan plan = pass(p);
        assertThat(plan.starts()).isEmpty();
        assertThat(plan.pendingReasons())
                .containsEntry(mem, JobReason.MAX_MEMORY_PER_ACCOUNT)
                .containsEntry(nodes, JobReason.MAX_NODE_PER_ACCOUNT)
                .containsEntry(gpus, JobReason.MAX_GRES_PER_ACCOUNT);
        assertThat(JobReason.MAX_CPU_PER_ACCOUNT.slurmName()).isEqualTo("MaxCpuPerAccount");
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
                Map.of("normal", capped.qos().get("normal"), "other", other));
        Job big =
                Job.submitted(1, job().account("physics").qos("other").tasks(6).build(), "p", 10, 1000);
        LimitUsage usage = LimitUsage.of(p, List.of());
        usage.started(big, JobTres.of(big.request()));
        Job small =
                Job.submitted(2, job().account("physics").qos("normal").tasks(2).build(), "p", 10, 1000);
        assertThat(LimitGate.reason(LIMITS, p, usage, small)).isNull();
        usage.started(small, Tres.empty().with("cpu", 2));
        Job more =
                Job.submitted(3, job().account("physics").qos("normal").tasks(1).build(), "p", 10, 1000);
        assertThat(LimitGate.reason(LIMITS, p, usage, more)).isEqualTo(JobReason.MAX_CPU_PER_ACCOUNT);
    }

    @Test
    void withoutLimitsEnforcedTheCapIsNotChecked() {
        AccountingPolicy p = policy("cpu=1");
        Job job =
                Job.submitted(1, job().account("physics").qos("normal").tasks(4).build(), "p", 10, 1000);
        Enforcement assocOnly = Enforcement.parse(List.of("associations"));
        assertThat(LimitGate.reason(assocOnly, p, LimitUsage.of(p, List.of()), job))
                .isNull();
        assertThat(LimitGate.reason(LIMITS, p, LimitUsage.of(p, List.of()), job))
                .isEqualTo(JobReason.MAX_CPU_PER_ACCOUNT);
    }
}
