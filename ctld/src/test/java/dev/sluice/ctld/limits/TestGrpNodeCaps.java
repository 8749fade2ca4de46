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
 * GrpTRES node= of a QOS, an account and a user association: a node counts once however many of
 * the jobs counted there share it, whoever runs them, as in Slurm 22.05 (compat 167, 168). Jobs
 * packed on one node start; one that needs another node waits with QOSGrpNodeLimit
 * (AssocGrpNodeLimit). Two nodes of 8 CPUs.
 */
class TestGrpNodeCaps {
    private LimitedCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = LimitedCluster.cpusOnly();
    }

    /** physics (users 1000, 1001) and chem (user 1000), with GrpTRES where the caller puts it. */
    static AccountingPolicy policy(String qosGrp, String physicsGrp, String user1000Grp) {
        return LimitedCluster.policy()
                .qos(Qos.builder("normal").limits(grp(qosGrp)).build())
                .account("physics", grp(physicsGrp))
                .account("chem")
                .user("user1000", "physics", grp(user1000Grp))
                .user("user1001", "physics")
                .user("user1000", "chem")
                .build();
    }

    private static Limits grp(String tres) {
        return Limits.builder().grpTres(TresLimits.parse(tres)).build();
    }

    @Test
    void aQosJobsOfDifferentUsersSharingANodeCountItOnce() {
        AccountingPolicy p = policy("node=1", "", "");
        int first = cluster.submit(p, oneNodeJob().account("physics").tasks(1).build());
        int otherUser = cluster.submit(
                p, oneNodeJob().account("physics").uid(1001).tasks(1).build());
        int otherAccount =
                cluster.submit(p, oneNodeJob().account("chem").tasks(1).build());
        int whole = cluster.submit(p, oneNodeJob().account("physics").tasks(8).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(first, otherUser, otherAccount);
        assertThat(plan.starts())
                .allSatisfy(s -> assertThat(s.allocation().nodeNames()).containsExactly("n1"));
        assertThat(plan.pendingReasons()).containsEntry(whole, JobReason.QOS_GRP_NODE_LIMIT);
    }

    @Test
    void anAccountsJobsSharingANodeCountItOnceWhoeverRunsThem() {
        anAccountsJobsCountASharedNodeOnce(cluster, policy("", "node=1", ""), JobReason.ASSOC_GRP_NODE_LIMIT);
    }

    /**
     * Under {@code p}, a node= cap of 1 on physics: its jobs packed on one node start whoever
     * runs them, one that needs a node of its own waits with {@code reason}, and chem's is not held.
     */
    static void anAccountsJobsCountASharedNodeOnce(LimitedCluster cluster, AccountingPolicy p, JobReason reason) {
        int first = cluster.submit(p, oneNodeJob().account("physics").tasks(1).build());
        int otherUser = cluster.submit(
                p, oneNodeJob().account("physics").uid(1001).tasks(1).build());
        int whole = cluster.submit(p, oneNodeJob().account("physics").tasks(8).build());
        int otherAccount =
                cluster.submit(p, oneNodeJob().account("chem").tasks(8).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(first, otherUser, otherAccount);
        assertThat(plan.pendingReasons()).containsEntry(whole, reason);
    }

    @Test
    void aUserAssociationsJobsSharingANodeCountItOnce() {
        AccountingPolicy p = policy("", "", "node=1");
        int first = cluster.submit(p, oneNodeJob().account("physics").tasks(1).build());
        int beside = cluster.submit(p, oneNodeJob().account("physics").tasks(1).build());
        int whole = cluster.submit(p, oneNodeJob().account("physics").tasks(8).build());
        // Another user of the account is not held by user1000's own cap.
        int otherUser = cluster.submit(
                p, oneNodeJob().account("physics").uid(1001).tasks(8).build());
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(first, beside, otherUser);
        assertThat(plan.pendingReasons()).containsEntry(whole, JobReason.ASSOC_GRP_NODE_LIMIT);
    }

    @Test
    void beforePlacementAJobMayYetShareTheNodesHeldAndAfterItCountsOnlyNewOnes() {
        AccountingPolicy p = policy("node=1", "", "");
        Job running = pending(1, oneNodeJob().account("physics").build());
        Job oneNode = pending(2, oneNodeJob().account("chem").build());
        Job twoNodes = pending(3, oneNodeJob().account("physics").nodes(2).build());
        LimitUsage usage = LimitUsage.of(p, List.of());
        usage.started(running, JobTres.of(running.request()), List.of("n1"));
        assertThat(usage.qos("normal").tres().get("node")).isEqualTo(1);
        assertThat(LimitGate.reason(LIMITS, p, usage, oneNode)).isNull();
        assertThat(LimitGate.reason(LIMITS, p, usage, twoNodes)).isEqualTo(JobReason.QOS_GRP_NODE_LIMIT);
        assertThat(LimitGate.placed(LIMITS, p, usage, oneNode, List.of("n1"))).isNull();
        assertThat(LimitGate.placed(LIMITS, p, usage, oneNode, List.of("n2"))).isEqualTo(JobReason.QOS_GRP_NODE_LIMIT);
        usage.started(oneNode, JobTres.of(oneNode.request()), List.of("n1"));
        assertThat(usage.qos("normal").tres().get("node")).isEqualTo(1);
        assertThat(usage.qos("normal").tres().get("cpu")).isEqualTo(2);
    }

    @Test
    void anAccountAboveCountsTheNodesOfEveryAccountBelowOnce() {
        AccountingPolicy p = policy("", "", "");
        Job physics = pending(1, oneNodeJob().account("physics").build());
        Job chem = pending(2, oneNodeJob().account("chem").build());
        LimitUsage usage = LimitUsage.of(p, List.of());
        usage.started(physics, JobTres.of(physics.request()), List.of("n1"));
        usage.started(chem, JobTres.of(chem.request()), List.of("n1"));
        assertThat(usage.account("root").tres().get("node")).isEqualTo(1);
        assertThat(usage.account("root").nodes()).containsExactly("n1");
        assertThat(usage.association("physics", "user1000").tres().get("node")).isEqualTo(1);
    }
}
