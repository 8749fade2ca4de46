package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitedCluster.LIMITS;
import static dev.sluice.ctld.limits.LimitedCluster.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.sched.SchedulePlan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A QOS's MaxWall, MaxJobsPerUser and MaxSubmitJobsPerUser against the user association's
 * MaxWall, MaxJobs and MaxSubmitJobs (compat 270, 271): where the QOS sets one, it replaces the
 * association's, looser or tighter; where it does not, the association's holds.
 */
class TestQosOverAssocCounts {
    /** user1000 in physics with MaxWall=5, MaxJobs=2, MaxSubmitJobs=3 and the QOSes given. */
    private static AccountingPolicy policy(Qos... qos) {
        Limits userLimits =
                Limits.builder().maxWallMinutes(5).maxJobs(2).maxSubmitJobs(3).build();
        return LimitedCluster.policy()
                .qos(qos)
                .account("physics")
                .user("user1000", "physics", userLimits)
                .build();
    }

    private static final Qos LOOSER = Qos.builder("looser")
            .limits(Limits.builder()
                    .maxWallMinutes(10)
                    .maxJobs(3)
                    .maxSubmitJobs(4)
                    .build())
            .build();
    private static final Qos TIGHTER = Qos.builder("tighter")
            .limits(Limits.builder()
                    .maxWallMinutes(2)
                    .maxJobs(1)
                    .maxSubmitJobs(2)
                    .build())
            .build();

    private static JobReason wall(AccountingPolicy p, String qos, long minutes) {
        var j = dev.sluice.ctld.state.Job.submitted(
                1, job().account("physics").qos(qos).timeLimit(minutes).build(), "p", minutes, 1000);
        return LimitGate.reason(LIMITS, p, LimitUsage.of(p, List.of()), j);
    }

    @Test
    void theQosMaxWallReplacesTheAssociations() {
        AccountingPolicy p = policy(LOOSER, TIGHTER);
        assertThat(wall(p, "looser", 8)).isNull();
        assertThat(wall(p, "looser", 12)).isEqualTo(JobReason.QOS_MAX_WALL_DURATION_PER_JOB_LIMIT);
        assertThat(wall(p, "tighter", 4)).isEqualTo(JobReason.QOS_MAX_WALL_DURATION_PER_JOB_LIMIT);
        assertThat(wall(p, "normal", 8)).isEqualTo(JobReason.ASSOC_MAX_WALL_DURATION_PER_JOB_LIMIT);
        assertThat(wall(p, "normal", 4)).isNull();
    }

    /** Submits {@code count} one-CPU jobs under {@code qos} and runs one pass: its plan. */
    private static SchedulePlan submitted(LimitedCluster c, AccountingPolicy p, String qos, int count) {
        for (int i = 0; i < count; i++) {
            c.submit(p, job().account("physics").qos(qos).tasks(1).timeLimit(1).build());
        }
        return c.pass(p);
    }

    @Test
    void theQosMaxJobsPerUserReplacesTheAssociationsMaxJobs() {
        AccountingPolicy p = policy(LOOSER, TIGHTER);
        SchedulePlan looser = submitted(LimitedCluster.cpusOnly(), p, "looser", 4);
        assertThat(looser.starts()).hasSize(3);
        assertThat(looser.pendingReasons()).containsValue(JobReason.QOS_MAX_JOBS_PER_USER_LIMIT);
        SchedulePlan tighter = submitted(LimitedCluster.cpusOnly(), p, "tighter", 2);
        assertThat(tighter.starts()).hasSize(1);
        assertThat(tighter.pendingReasons()).containsValue(JobReason.QOS_MAX_JOBS_PER_USER_LIMIT);
        SchedulePlan normal = submitted(LimitedCluster.cpusOnly(), p, "normal", 3);
        assertThat(normal.starts()).hasSize(2);
        assertThat(normal.pendingReasons()).containsValue(JobReason.ASSOC_MAX_JOBS_LIMIT);
    }

    /** The submission after {@code accepted} ones under {@code qos}: refused with its reason line. */
    private static void refusedAfter(AccountingPolicy p, String qos, int accepted, JobReason why) {
        LimitedCluster c = LimitedCluster.cpusOnly();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < accepted; i++) {
            ids.add(c.submit(p, job().account("physics").qos(qos).build()));
        }
        assertThat(ids).hasSize(accepted);
        assertThatThrownBy(() -> c.submit(p, job().account("physics").qos(qos).build()))
                .isInstanceOfSatisfying(SlurmException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ACCOUNTING_POLICY);
                    assertThat(e.userMessage()).isEqualTo(why.slurmName());
                });
    }

    @Test
    void theQosMaxSubmitJobsPerUserReplacesTheAssociationsMaxSubmitJobs() {
        AccountingPolicy p = policy(LOOSER, TIGHTER);
        refusedAfter(p, "looser", 4, JobReason.QOS_MAX_SUBMIT_JOB_PER_USER_LIMIT);
        refusedAfter(p, "tighter", 2, JobReason.QOS_MAX_SUBMIT_JOB_PER_USER_LIMIT);
        refusedAfter(p, "normal", 3, JobReason.ASSOC_MAX_SUBMIT_JOB_LIMIT);
    }
}
