package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitedCluster.LIMITS;
import static dev.sluice.ctld.limits.LimitedCluster.job;
import static dev.sluice.ctld.limits.LimitedCluster.pending;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Job;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A QOS's MaxTRESPerNode and MaxTRES (per job) against the user association's caps on the same
 * TRES (compat 265): the QOS's cap holds, looser or tighter, and the association's is checked only
 * for the TRES the QOS leaves uncapped.
 */
class TestQosOverAssocCaps {
    /** user1000 in physics with MaxTRESPerNode=cpu=2 and MaxTRES=gres/gpu=1, the QOSes given. */
    private static AccountingPolicy policy(Qos... qos) {
        Limits userCaps = Limits.builder()
                .maxTresPerNode(TresLimits.parse("cpu=2"))
                .maxTresPerJob(TresLimits.parse("gres/gpu=1"))
                .build();
        return LimitedCluster.policy()
                .qos(qos)
                .account("physics")
                .user("user1000", "physics", userCaps)
                .build();
    }

    private static final Qos LOOSER = Qos.builder("looser")
            .limits(Limits.builder()
                    .maxTresPerJob(TresLimits.parse("gres/gpu=2"))
                    .build())
            .maxTresPerNode(TresLimits.parse("cpu=3"))
            .build();
    private static final Qos TIGHTER =
            Qos.builder("tighter").maxTresPerNode(TresLimits.parse("cpu=1")).build();

    private static Job onOneNode(int id, String qos, int tasks, String gres) {
        var b = job().account("physics").qos(qos).nodes(1).tasks(tasks);
        return pending(id, (gres == null ? b : b.gres(gres)).build());
    }

    private static JobReason gate(AccountingPolicy p, Job j) {
        JobReason r = LimitGate.reason(LIMITS, p, LimitUsage.of(p, List.of()), j);
        return r != null ? r : LimitGate.perNode(LIMITS, p, j, true);
    }

    @Test
    void aLooserQosCapLetsAJobPastTheAssociations() {
        AccountingPolicy p = policy(LOOSER, TIGHTER);
        assertThat(gate(p, onOneNode(1, "looser", 3, null))).isNull();
        assertThat(gate(p, onOneNode(2, "looser", 1, "gpu:2"))).isNull();
    }

    @Test
    void overBothTheQosReasonIsGiven() {
        AccountingPolicy p = policy(LOOSER, TIGHTER);
        assertThat(gate(p, onOneNode(1, "looser", 4, null))).isEqualTo(JobReason.QOS_MAX_CPU_PER_NODE);
        assertThat(gate(p, onOneNode(2, "looser", 1, "gpu:3"))).isEqualTo(JobReason.QOS_MAX_GRES_PER_JOB);
    }

    @Test
    void aTighterQosCapHoldsWhereTheAssociationsWouldNot() {
        AccountingPolicy p = policy(LOOSER, TIGHTER);
        assertThat(gate(p, onOneNode(1, "tighter", 2, null))).isEqualTo(JobReason.QOS_MAX_CPU_PER_NODE);
    }

    @Test
    void theAssociationsCapStillHoldsForATresTheQosLeavesUncapped() {
        AccountingPolicy p = policy(LOOSER, TIGHTER);
        assertThat(gate(p, onOneNode(1, "tighter", 1, "gpu:2"))).isEqualTo(JobReason.ASSOC_MAX_GRES_PER_JOB);
        assertThat(gate(p, onOneNode(2, "normal", 3, null))).isEqualTo(JobReason.ASSOC_MAX_CPU_PER_NODE);
    }

    @Test
    void withoutIgnoresOnlyTheNamedTres() {
        TresLimits caps = TresLimits.parse("cpu=2,gres/gpu=1");
        assertThat(caps.without(TresLimits.parse("cpu=8")).caps()).containsExactly(Map.entry("gres/gpu", 1L));
        assertThat(caps.without(TresLimits.NONE)).isEqualTo(caps);
        assertThat(caps.without(TresLimits.parse("cpu=8")).exceeded(Tres.empty(), Tres.empty()))
                .isNull();
    }
}
