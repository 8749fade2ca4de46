package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitedCluster.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.state.JobRequest;
import org.junit.jupiter.api.Test;

/**
 * QOS Flags=DenyOnLimit (compat 272, 281): over its QOS's MaxWall, MaxTRESPerJob, MaxTRESPerNode,
 * MaxTRESPerUser or MaxTRESPerAccount (cpu, mem, node, gres/gpu), or over its association's
 * MaxWall under a flagged QOS without one, a job is refused at submission with the reason it
 * would have waited with; without the flag the same job is accepted to wait. A job without a
 * memory request counts each node's whole memory (16000 MB here).
 */
class TestDenyOnLimit {
    /** user1000 in physics with MaxWall=8, QOS strict (flag, MaxWall=5, cpu=2), bare (flag only). */
    private static AccountingPolicy policy() {
        return LimitedCluster.policy()
                .qos(Qos.builder("strict")
                        .denyOnLimit(true)
                        .limits(Limits.builder()
                                .maxWallMinutes(5)
                                .maxTresPerJob(TresLimits.parse("cpu=2"))
                                .build())
                        .build())
                .qos(Qos.builder("bare").denyOnLimit(true).build())
                .qos(Qos.builder("pernode")
                        .denyOnLimit(true)
                        .maxTresPerNode(TresLimits.parse("cpu=2,mem=1000,gres/gpu=1"))
                        .build())
                .qos(Qos.builder("perjob")
                        .denyOnLimit(true)
                        .limits(Limits.builder()
                                .maxTresPerJob(TresLimits.parse("node=1,mem=1500,gres/gpu=2"))
                                .build())
                        .build())
                .qos(Qos.builder("peruser")
                        .denyOnLimit(true)
                        .maxTresPerUser(TresLimits.parse("cpu=2,node=1,gres/gpu=1"))
                        .build())
                .qos(Qos.builder("peraccount")
                        .denyOnLimit(true)
                        .maxTresPerAccount(TresLimits.parse("cpu=3,mem=2000"))
                        .build())
                .qos(Qos.builder("wholenode")
                        .denyOnLimit(true)
                        .maxTresPerNode(TresLimits.parse("mem=16000"))
                        .build())
                .qos(Qos.builder("lessthannode")
                        .denyOnLimit(true)
                        .maxTresPerNode(TresLimits.parse("mem=15999"))
                        .build())
                .account("physics")
                .user("user1000", "physics", Limits.builder().maxWallMinutes(8).build())
                .build();
    }

    private static JobRequest asking(String qos, int tasks, long minutes) {
        return job().account("physics").qos(qos).tasks(tasks).timeLimit(minutes).build();
    }

    /** A job of {@code qos} in physics that asks for no memory unless the test adds it. */
    private static Builders.JobBuilder shaped(String qos, int nodes, int tasks) {
        return Builders.aJob()
                .account("physics")
                .qos(qos)
                .nodes(nodes)
                .tasks(tasks)
                .timeLimit(3);
    }

    private static void refused(JobRequest r, JobReason why) {
        assertThatThrownBy(() -> LimitedCluster.withGpus().submit(policy(), r))
                .isInstanceOfSatisfying(SlurmException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ACCOUNTING_POLICY);
                    assertThat(e.userMessage()).isEqualTo(why.slurmName());
                });
    }

    @Test
    void overTheQosLimitsIsRefused() {
        refused(asking("strict", 1, 10), JobReason.QOS_MAX_WALL_DURATION_PER_JOB_LIMIT);
        refused(asking("strict", 3, 3), JobReason.QOS_MAX_CPU_PER_JOB_LIMIT);
    }

    @Test
    void overTheAssociationsLimitUnderAFlaggedQosIsRefused() {
        refused(asking("bare", 1, 10), JobReason.ASSOC_MAX_WALL_DURATION_PER_JOB_LIMIT);
    }

    @Test
    void withinTheLimitsOrWithoutTheFlagTheJobIsAccepted() {
        LimitedCluster c = LimitedCluster.cpusOnly();
        assertThat(c.submit(policy(), asking("strict", 2, 3))).isPositive();
        assertThat(c.submit(policy(), asking("bare", 1, 8))).isPositive();
        int waiting = c.submit(policy(), asking("normal", 1, 10));
        assertThat(c.pass(policy()).pendingReasons())
                .containsEntry(waiting, JobReason.ASSOC_MAX_WALL_DURATION_PER_JOB_LIMIT);
    }

    @Test
    void overTheQosMaxTresPerNodeIsRefused() {
        refused(shaped("pernode", 1, 3).memPerNode(500).build(), JobReason.QOS_MAX_CPU_PER_NODE);
        refused(shaped("pernode", 1, 1).memPerNode(1500).build(), JobReason.QOS_MAX_MEMORY_PER_NODE);
        refused(shaped("pernode", 1, 1).memPerNode(500).gres("gpu:2").build(), JobReason.QOS_MAX_GRES_PER_NODE);
        // No --mem: the whole node's memory, checked before GRES.
        refused(shaped("pernode", 1, 1).gres("gpu:2").build(), JobReason.QOS_MAX_MEMORY_PER_NODE);
        assertThat(LimitedCluster.withGpus()
                        .submit(
                                policy(),
                                shaped("pernode", 2, 4)
                                        .memPerNode(1000)
                                        .gres("gpu:1")
                                        .build()))
                .isPositive();
    }

    @Test
    void overTheQosMaxTresPerJobBeyondCpuIsRefused() {
        refused(shaped("perjob", 2, 2).memPerNode(500).build(), JobReason.QOS_MAX_NODE_PER_JOB_LIMIT);
        refused(shaped("perjob", 1, 1).memPerNode(2000).build(), JobReason.QOS_MAX_MEMORY_PER_JOB);
        refused(shaped("perjob", 1, 1).memPerNode(500).gres("gpu:3").build(), JobReason.QOS_MAX_GRES_PER_JOB);
        refused(shaped("perjob", 2, 2).build(), JobReason.QOS_MAX_MEMORY_PER_JOB);
        assertThat(LimitedCluster.withGpus()
                        .submit(
                                policy(),
                                shaped("perjob", 1, 1)
                                        .memPerNode(1500)
                                        .gres("gpu:2")
                                        .build()))
                .isPositive();
    }

    @Test
    void aJobAloneOverTheQosMaxTresPerUserOrPerAccountIsRefused() {
        refused(shaped("peruser", 1, 3).build(), JobReason.QOS_MAX_CPU_PER_USER_LIMIT);
        refused(shaped("peruser", 2, 2).build(), JobReason.QOS_MAX_NODE_PER_USER_LIMIT);
        refused(shaped("peruser", 1, 1).gres("gpu:2").build(), JobReason.QOS_MAX_GRES_PER_USER);
        refused(shaped("peraccount", 1, 4).build(), JobReason.MAX_CPU_PER_ACCOUNT);
        refused(shaped("peraccount", 1, 1).memPerNode(3000).build(), JobReason.MAX_MEMORY_PER_ACCOUNT);
        LimitedCluster c = LimitedCluster.withGpus();
        assertThat(c.submit(policy(), shaped("peruser", 1, 2).gres("gpu:1").build()))
                .isPositive();
        // What the user's other jobs hold does not refuse the next one: it waits instead.
        assertThat(c.submit(policy(), shaped("peruser", 1, 2).gres("gpu:1").build()))
                .isPositive();
        assertThat(c.submit(
                        policy(), shaped("peraccount", 1, 3).memPerNode(2000).build()))
                .isPositive();
    }

    @Test
    void aJobWithoutAMemoryRequestCountsTheWholeNode() {
        LimitedCluster c = LimitedCluster.withGpus();
        assertThat(c.submit(policy(), shaped("wholenode", 1, 1).build())).isPositive();
        refused(shaped("lessthannode", 1, 1).build(), JobReason.QOS_MAX_MEMORY_PER_NODE);
        assertThat(c.submit(
                        policy(), shaped("lessthannode", 1, 1).memPerNode(15999).build()))
                .isPositive();
    }
}
