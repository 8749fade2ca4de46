package dev.sluice.ctld.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.JobRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A per-job node limit (QOS MaxTRESPerJob=node=, association MaxTRES=node=) caps the nodes of a
 * job that could otherwise have more, as Slurm 22.05 does at submission (compat 214, 217): a job
 * whose tasks then fit on no node is refused ("Requested node configuration is not available"),
 * one asking for more nodes at least waits for the limit (compat 169). Two nodes of 8 CPUs.
 */
class TestNodePerJobCap {
    private LimitedCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = LimitedCluster.cpusOnly();
    }

    private static AccountingPolicy policy(String qosPerJob, String accountPerJob) {
        AccountingPolicy base = TestQosAccountLimits.policy("");
        Qos normal = Qos.builder("normal")
                .limits(Limits.builder()
                        .maxTresPerJob(TresLimits.parse(qosPerJob))
                        .build())
                .build();
        List<Association> assocs = base.associations().stream()
                .map(a -> a.user().isEmpty() && a.account().equals("physics")
                        ? Association.builder("physics")
                                .parent("root")
                                .limits(Limits.builder()
                                        .maxTresPerJob(TresLimits.parse(accountPerJob))
                                        .build())
                                .build()
                        : a)
                .toList();
        return new AccountingPolicy(1, assocs, base.defaultAccounts(), Map.of("normal", normal), UserWckeys.NONE);
    }

    private static Builders.JobBuilder job() {
        return Builders.aJob().timeLimit(10).memPerNode(100).account("physics");
    }

    private void assertRefused(AccountingPolicy p, JobRequest r) {
        assertThatThrownBy(() -> cluster.submit(p, r))
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
    }

    @Test
    void aQosCapOfOneNodeRefusesTasksThatCannotShareOneNode() {
        AccountingPolicy p = policy("node=1", "");
        assertRefused(p, job().tasks(9).build());
        assertRefused(p, job().tasks(2).cpusPerTask(5).build());
        assertRefused(p, job().nodes(1, 2).tasks(9).build());
        int fits = cluster.submit(p, job().tasks(8).build());
        int twoNodes = cluster.submit(p, job().nodes(2).tasks(2).build());
        assertThat(cluster.job(fits).request().size().maxNodes()).isEqualTo(1);
        assertThat(cluster.job(twoNodes).request().size().maxNodes()).isZero();
        SchedulePlan plan = cluster.pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(fits);
        assertThat(plan.pendingReasons()).containsEntry(twoNodes, JobReason.QOS_MAX_NODE_PER_JOB_LIMIT);
    }

    @Test
    void anAssociationCapInheritedFromItsAccountRefusesTheSame() {
        AccountingPolicy p = policy("", "node=1");
        assertRefused(p, job().tasks(9).build());
        int twoNodes = cluster.submit(p, job().nodes(2).tasks(2).build());
        assertThat(cluster.pass(p).pendingReasons()).containsEntry(twoNodes, JobReason.ASSOC_MAX_NODE_PER_JOB_LIMIT);
    }

    @Test
    void theLowerOfTheTwoCapsApplies() {
        assertRefused(policy("node=2", "node=1"), job().tasks(9).build());
        assertRefused(policy("node=1", "node=2"), job().tasks(9).build());
        int taken = cluster.submit(policy("node=2", "node=2"), job().tasks(9).build());
        assertThat(cluster.job(taken).request().size().maxNodes()).isEqualTo(2);
    }

    @Test
    void withoutLimitsEnforcedNothingIsCapped() {
        AccountingPolicy p = policy("node=1", "node=1");
        JobRequest r = job().qos("normal").tasks(9).build();
        PolicyView associationsOnly = new PolicyView(Enforcement.parse(List.of("associations")), p, false);
        assertThat(Admission.capNodes(associationsOnly, r, "p")).isSameAs(r);
        assertThat(Admission.capNodes(new PolicyView(LimitedCluster.LIMITS, p, false), r, "p")
                        .size()
                        .maxNodes())
                .isEqualTo(1);
    }
}
