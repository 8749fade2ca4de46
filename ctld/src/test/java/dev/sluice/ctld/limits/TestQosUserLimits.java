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
 * A QOS's MaxTRESPerUser: the running jobs of each user under the QOS together stay within it,
 * whichever accounts they run in, every user on its own, and a job that would pass it waits with
 * Slurm 22.05's reason (QOSMaxCpuPerUserLimit, QOSMaxMemoryPerUser, QOSMaxNodePerUserLimit,
 * QOSMaxGRESPerUser; compat 197). Two nodes of 8 CPUs, 16000 MB and 2 GPUs each.
 */
class TestQosUserLimits {
    private LimitedCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = LimitedCluster.withGpus();
    }

    /** QOS normal with {@code perUser} over TestQosAccountLimits' accounts: user1000 in physics and chem. */
    static AccountingPolicy policy(String perUser) {
        AccountingPolicy base = TestQosAccountLimits.policy("");
        Qos normal =
                Qos.builder("normal").maxTresPerUser(TresLimits.parse(perUser)).build();
        return new AccountingPolicy(
                1, base.associations(), base.defaultAccounts(), Map.of("normal", normal), UserWckeys.NONE);
    }

    @Test
    void theJobThatWouldTakeItsUserPastTheCapWaitsWhileOtherUsersStart() {
        AccountingPolicy p = policy("cpu=4");
        int three = cluster.submit(p, job().account("physics").tasks(3).build());
        // Another account of the same user: the cap is the user's, not the association's.
        int two = cluster.submit(p, job().account("chem").tasks(2).build());
        int otherUser =
                cluster.submit(p, job().account("physics").tasks(4).uid(1001).build());
        int one = cluster.submit(p, job().account("physics").tasks(1).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(three, otherUser, one);
        assertThat(plan.pendingReasons()).containsEntry(two, JobReason.QOS_MAX_CPU_PER_USER_LIMIT);
        assertThat(JobReason.QOS_MAX_CPU_PER_USER_LIMIT.slurmName()).isEqualTo("QOSMaxCpuPerUserLimit");
    }

    @Test
    void everyTresHasItsOwnReason() {
        TestQosAccountLimits.everyTresHasItsOwnReason(
                cluster,
                policy("mem=1000,node=1,gres/gpu=1"),
                JobReason.QOS_MAX_MEMORY_PER_USER,
                JobReason.QOS_MAX_NODE_PER_USER_LIMIT,
                JobReason.QOS_MAX_GRES_PER_USER);
    }

    @Test
    void theWaitingJobStartsOnceTheUsersEarlierJobHasGone() {
        AccountingPolicy p = policy("cpu=4");
        int first = cluster.submit(p, job().account("physics").tasks(3).build());
        int second = cluster.submit(p, job().account("chem").tasks(2).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.pendingReasons()).containsEntry(second, JobReason.QOS_MAX_CPU_PER_USER_LIMIT);
        cluster.start(plan);
        assertThat(cluster.pass(p).pendingReasons()).containsEntry(second, JobReason.QOS_MAX_CPU_PER_USER_LIMIT);
        cluster.end(first);
        assertThat(cluster.pass(p).starts())
                .extracting(SchedulePlan.Start::jobId)
                .containsExactly(second);
    }

    @Test
    void thePerAccountCapIsCheckedBeforeThePerUserOne() {
        AccountingPolicy base = policy("cpu=1");
        Qos both = base.qos().get("normal").with(b -> b.maxTresPerAccount(TresLimits.parse("cpu=1")));
        AccountingPolicy p = new AccountingPolicy(
                1, base.associations(), base.defaultAccounts(), Map.of("normal", both), UserWckeys.NONE);
        Job job = pending(1, job().account("physics").qos("normal").tasks(2).build());
        assertThat(LimitGate.reason(LIMITS, p, LimitUsage.of(p, List.of()), job))
                .isEqualTo(JobReason.MAX_CPU_PER_ACCOUNT);
        assertThat(LimitGate.reason(LIMITS, base, LimitUsage.of(base, List.of()), job))
                .isEqualTo(JobReason.QOS_MAX_CPU_PER_USER_LIMIT);
        assertThat(LimitGate.reason(
                        Enforcement.parse(List.of("associations")), base, LimitUsage.of(base, List.of()), job))
                .isNull();
    }
}
