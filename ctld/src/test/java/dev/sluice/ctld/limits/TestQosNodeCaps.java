package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitedCluster.LIMITS;
import static dev.sluice.ctld.limits.LimitedCluster.oneNodeJob;
import static dev.sluice.ctld.limits.LimitedCluster.pending;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.Job;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A QOS's MaxTRESPerUser and MaxTRESPerAccount node=: a node counts once however many of the
 * user's (account's) jobs share it, as in Slurm 22.05 (compat 198, 199). A job packed beside
 * the user's running one starts; one that needs a node of its own waits with
 * QOSMaxNodePerUserLimit (MaxNodePerAccount). Two nodes of 8 CPUs.
 */
class TestQosNodeCaps {
    private LimitedCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = LimitedCluster.cpusOnly();
    }

    @Test
    void aUsersJobsSharingANodeCountItOnceAndOneNeedingAnotherNodeWaits() {
        AccountingPolicy p = TestQosUserLimits.policy("node=1");
        int first = cluster.submit(p, oneNodeJob().account("physics").tasks(1).build());
        // Another account of the same user, packed beside the first: still one node.
        int beside = cluster.submit(p, oneNodeJob().account("chem").tasks(1).build());
        int whole = cluster.submit(p, oneNodeJob().account("physics").tasks(8).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(first, beside);
        assertThat(plan.starts())
                .allSatisfy(s -> assertThat(s.allocation().nodeNames()).containsExactly("n1"));
        assertThat(plan.pendingReasons()).containsEntry(whole, JobReason.QOS_MAX_NODE_PER_USER_LIMIT);
    }

    @Test
    void anAccountsJobsSharingANodeCountItOnceWhoeverRunsThem() {
        TestGrpNodeCaps.anAccountsJobsCountASharedNodeOnce(
                cluster, TestQosAccountLimits.policy("node=1"), JobReason.MAX_NODE_PER_ACCOUNT);
    }

    @Test
    void beforePlacementAJobMayYetShareTheNodesItsUserHolds() {
        AccountingPolicy p = TestQosUserLimits.policy("node=1");
        Job running = pending(1, oneNodeJob().account("physics").build());
        Job oneNode = pending(2, oneNodeJob().account("physics").build());
        Job twoNodes = pending(3, oneNodeJob().account("physics").nodes(2).build());
        LimitUsage usage = LimitUsage.of(p, List.of());
        usage.started(running, JobTres.of(running.request()), List.of("n1"));
        assertThat(LimitGate.reason(LIMITS, p, usage, oneNode)).isNull();
        assertThat(LimitGate.reason(LIMITS, p, usage, twoNodes)).isEqualTo(JobReason.QOS_MAX_NODE_PER_USER_LIMIT);
        assertThat(LimitGate.placed(LIMITS, p, usage, oneNode, List.of("n1"))).isNull();
        assertThat(LimitGate.placed(LIMITS, p, usage, oneNode, List.of("n2")))
                .isEqualTo(JobReason.QOS_MAX_NODE_PER_USER_LIMIT);
        assertThat(LimitGate.placed(Enforcement.parse(List.of("associations")), p, usage, oneNode, List.of("n2")))
                .isNull();
    }
}
