package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitedCluster.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.JobRequest;
import org.junit.jupiter.api.Test;

/**
 * QOS Flags=DenyOnLimit (compat 272): over its QOS's MaxWall or MaxTRES, or over its
 * association's MaxWall under a flagged QOS without one, a job is refused at submission with the
 * reason it would have waited with; without the flag the same job is accepted to wait.
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
                .account("physics")
                .user("user1000", "physics", Limits.builder().maxWallMinutes(8).build())
                .build();
    }

    private static JobRequest asking(String qos, int tasks, long minutes) {
        return job().account("physics").qos(qos).tasks(tasks).timeLimit(minutes).build();
    }

    private static void refused(JobRequest r, JobReason why) {
        assertThatThrownBy(() -> LimitedCluster.cpusOnly().submit(policy(), r))
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
}
