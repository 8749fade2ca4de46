package dev.sluice.ctld.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * AccountingStorageEnforce at submit and in the scheduling pass. Error texts are Slurm 22.05's
 * (slurm_errno.c: ESLURM_INVALID_ACCOUNT 2045, ESLURM_INVALID_QOS 2066,
 * ESLURM_ACCOUNTING_POLICY 2050); reasons are job_state_reason_string()'s names.
 */
class TestAccountingLimits {
    private static final long NOW = 1_700_000_000L;
    private static final Scheduler.SelectDefaults SELECT = Scheduler.SelectDefaults.DEFAULT;
    private static final Enforcement ALL = Enforcement.parse(List.of("associations", "limits", "qos"));

    private ClusterState state;
    private ClusterFixture cluster;

    @BeforeEach
    void cluster() {
        cluster = ClusterFixture.idle(1, 8, NOW);
        state = cluster.state();
    }

    private static Association account(String name, String parent, Limits l) {
        return Association.builder(name).parent(parent).limits(l).build();
    }

    private static Association user(String account, String user, Limits l) {
        return Association.builder(account).user(user).parent(account).limits(l).build();
    }

    private static AccountingPolicy policy(List<Association> assocs, Qos... qos) {
        Map<String, Qos> q = new java.util.HashMap<>();
        q.put("normal", Qos.builder("normal").build());
        for (Qos one : qos) {
            q.put(one.name(), one);
        }
        return new AccountingPolicy(1, assocs, Map.of("user1000", "physics"), q, UserWckeys.NONE);
    }

    private static List<Association> tree(Limits userLimits, Limits accountLimits) {
        return List.of(
                Association.builder("root").qos(List.of("normal", "high")).build(),
                account("physics", "root", accountLimits),
                user("physics", "user1000", userLimits));
    }

    private int submit(AccountingPolicy p, Enforcement e, JobRequest r) {
        JobControl jobs = JobControl.builder(SELECT)
                .maxArraySize(1000)
                .limits(new PolicyView(e, p, false))
                .build();
        ControlResult<Integer> out = jobs.submit(state, r, NOW - 10);
        out.records().forEach(cluster::replay);
        return out.response();
    }

    private SchedulePlan pass(AccountingPolicy p) {
        return new Scheduler(
                        SchedulerConfig.builder(SELECT).reservationDepth(10).build())
                .schedule(state.image(), NOW, ALL, p);
    }

    private void start(int id, int cpus) {
        cluster.replay(new StateRecord.JobStarted(
                id, new Allocation(List.of(Allocation.NodeShare.of("n1", cpus, 0, 1))), "p", 60, NOW));
    }

    @Test
    void jobWithoutAccountGetsTheUsersDefaultAccountAndQos() {
        AccountingPolicy p = policy(
                tree(Limits.UNSET, Limits.UNSET),
                Qos.builder("high").priority(10).build());
        int id = submit(p, ALL, Builders.aJob().build());
        assertThat(state.job(id).request().account()).isEqualTo("physics");
        assertThat(state.job(id).request().qos()).isEqualTo("normal");
    }

    @Test
    void unknownAccountOrUserIsRefusedAndChangesNothing() {
        AccountingPolicy p = policy(tree(Limits.UNSET, Limits.UNSET));
        assertThatThrownBy(() ->
                        submit(p, ALL, Builders.aJob().account("chemistry").build()))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid account or account/partition combination specified");
        assertThatThrownBy(() -> submit(p, ALL, Builders.aJob().uid(2000).build()))
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.INVALID_ACCOUNT);
        assertThat(state.jobs()).isEmpty();
    }

    @Test
    void nothingLoadedYetRefusesEverything() {
        assertThatThrownBy(() ->
                        submit(AccountingPolicy.EMPTY, ALL, Builders.aJob().build()))
                .hasMessage("Invalid account or account/partition combination specified");
    }

    @Test
    void withoutEnforcementAnyAccountIsTaken() {
        int id = submit(
                AccountingPolicy.EMPTY,
                Enforcement.NONE,
                Builders.aJob().account("Whatever").build());
        assertThat(state.job(id).request().account()).isEqualTo("Whatever");
    }

    @Test
    void withoutEnforcementAnUnknownAccountOrQosFallsBackAsSlurmDoes() {
        // Recorded from Slurm 22.05 (compat 089): -A nonexistent runs as the user's default
        // account, -A ROOT as root, and --qos=bogus with no QOS at all.
        AccountingPolicy p = policy(
                tree(Limits.UNSET, Limits.UNSET),
                Qos.builder("high").priority(10).build());
        JobRequest unknownAccount = state.job(submit(
                        p,
                        Enforcement.NONE,
                        Builders.aJob().account("nonexistent").build()))
                .request();
        assertThat(unknownAccount.account()).isEqualTo("physics");
        assertThat(unknownAccount.qos()).isEqualTo("normal");
        assertThat(state.job(submit(
                                p,
                                Enforcement.NONE,
                                Builders.aJob().account("PHYSICS").build()))
                        .request()
                        .account())
                .isEqualTo("physics");
        JobRequest bogusQos = state.job(
                        submit(p, Enforcement.NONE, Builders.aJob().qos("bogus").build()))
                .request();
        assertThat(bogusQos.account()).isEqualTo("physics");
        assertThat(bogusQos.qos()).isEmpty();
        assertThat(state.job(submit(
                                p, Enforcement.NONE, Builders.aJob().qos("HIGH").build()))
                        .request()
                        .qos())
                .isEqualTo("high");
    }

    @Test
    void qosMustExistAndBeAllowed() {
        AccountingPolicy p = policy(
                tree(Limits.UNSET, Limits.UNSET),
                Qos.builder("high").priority(10).build(),
                Qos.builder("secret").priority(10).build());
        assertThatThrownBy(() -> submit(p, ALL, Builders.aJob().qos("nosuch").build()))
                .hasMessage("Invalid qos specification");
        assertThatThrownBy(() -> submit(p, ALL, Builders.aJob().qos("secret").build()))
                .hasMessage("Invalid qos specification");
        assertThat(state.job(submit(p, ALL, Builders.aJob().qos("high").build()))
                        .request()
                        .qos())
                .isEqualTo("high");
        // associations alone does not look at the QOS.
        Enforcement assocOnly = Enforcement.parse(List.of("associations"));
        submit(p, assocOnly, Builders.aJob().qos("secret").build());
    }

    @Test
    void maxSubmitJobsRefusesAtSubmitInheritedFromTheAccount() {
        AccountingPolicy p =
                policy(tree(Limits.UNSET, Limits.builder().maxSubmitJobs(2).build()));
        submit(p, ALL, Builders.aJob().build());
        submit(p, ALL, Builders.aJob().build());
        assertThatThrownBy(() -> submit(p, ALL, Builders.aJob().build()))
                .hasMessage("Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)");
        assertThat(state.jobs()).hasSize(2);
    }

    @Test
    void qosMaxSubmitJobsPerUser() {
        AccountingPolicy p = policy(
                tree(Limits.UNSET, Limits.UNSET),
                Qos.builder("high")
                        .limits(Limits.builder().maxSubmitJobs(1).build())
                        .build());
        submit(p, ALL, Builders.aJob().qos("high").build());
        assertThatThrownBy(() -> submit(p, ALL, Builders.aJob().qos("high").build()))
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.ACCOUNTING_POLICY);
    }

    @Test
    void maxJobsKeepsTheSecondJobPendingUntilTheFirstEnds() {
        AccountingPolicy p = policy(tree(Limits.builder().maxJobs(1).build(), Limits.UNSET));
        int first = submit(p, ALL, Builders.aJob().timeLimit(60).build());
        int second = submit(p, ALL, Builders.aJob().timeLimit(60).build());
        SchedulePlan plan = pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(first);
        assertThat(plan.pendingReasons()).containsEntry(second, JobReason.ASSOC_MAX_JOBS_LIMIT);
        start(first, 1);
        assertThat(pass(p).pendingReasons()).containsEntry(second, JobReason.ASSOC_MAX_JOBS_LIMIT);
        cluster.replay(StateRecord.JobEnded.unrequested(first, JobState.COMPLETED, 0, JobReason.NONE, NOW));
        assertThat(pass(p).starts()).extracting(SchedulePlan.Start::jobId).containsExactly(second);
    }

    @Test
    void maxWallOnAssociationAndQos() {
        AccountingPolicy p = policy(
                tree(Limits.builder().maxWallMinutes(30).build(), Limits.UNSET),
                Qos.builder("high")
                        .limits(Limits.builder().maxWallMinutes(10).build())
                        .build());
        int assoc = submit(p, ALL, Builders.aJob().timeLimit(60).build());
        int qos = submit(p, ALL, Builders.aJob().timeLimit(20).qos("high").build());
        int fits = submit(p, ALL, Builders.aJob().timeLimit(30).build());
        SchedulePlan plan = pass(p);
        assertThat(plan.pendingReasons())
                .containsEntry(assoc, JobReason.ASSOC_MAX_WALL_DURATION_PER_JOB_LIMIT)
                .containsEntry(qos, JobReason.QOS_MAX_WALL_DURATION_PER_JOB_LIMIT);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(fits);
    }

    @Test
    void grpCpusOnTheAccountCountsEveryUserBelowIt() {
        AccountingPolicy p =
                policy(tree(Limits.UNSET, Limits.builder().grpCpus(4).build()));
        int a = submit(p, ALL, Builders.aJob().tasks(3).timeLimit(10).build());
        int b = submit(p, ALL, Builders.aJob().tasks(2).timeLimit(10).build());
        int c = submit(p, ALL, Builders.aJob().tasks(1).timeLimit(10).build());
        SchedulePlan plan = pass(p);
        // a (3 CPUs) starts, b would make 5 > 4, c makes exactly 4.
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(a, c);
        assertThat(plan.pendingReasons()).containsEntry(b, JobReason.ASSOC_GRP_CPU_LIMIT);
    }

    @Test
    void maxTresPerJobAndQosMaxJobsPerUser() {
        AccountingPolicy p = policy(
                tree(Limits.builder().maxCpusPerJob(2).build(), Limits.UNSET),
                Qos.builder("high").limits(Limits.builder().maxJobs(1).build()).build());
        int big = submit(p, ALL, Builders.aJob().tasks(3).timeLimit(10).build());
        int h1 = submit(p, ALL, Builders.aJob().qos("high").timeLimit(10).build());
        int h2 = submit(p, ALL, Builders.aJob().qos("high").timeLimit(10).build());
        SchedulePlan plan = pass(p);
        assertThat(plan.pendingReasons())
                .containsEntry(big, JobReason.ASSOC_MAX_CPU_PER_JOB_LIMIT)
                .containsEntry(h2, JobReason.QOS_MAX_JOBS_PER_USER_LIMIT);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(h1);
    }

    @Test
    void anAssociationRemovedAfterSubmitLeavesTheJobWaitingWithInvalidAccount() {
        int id = submit(
                policy(tree(Limits.UNSET, Limits.UNSET)),
                ALL,
                Builders.aJob().timeLimit(10).build());
        AccountingPolicy without = policy(List.of(account("physics", "root", Limits.UNSET)));
        assertThat(pass(without).pendingReasons()).containsEntry(id, JobReason.INVALID_ACCOUNT);
    }

    @Test
    void qosPrioritiesFromAccountingFeedTheQosFactor() {
        AccountingPolicy p = policy(
                tree(Limits.UNSET, Limits.UNSET),
                Qos.builder("high").priority(100).build());
        assertThat(p.qosPriorities().orElseThrow().factor("high")).isEqualTo(1.0);
        assertThat(p.qosPriorities().orElseThrow().factor("")).isEqualTo(0.0);
        assertThat(AccountingPolicy.EMPTY.qosPriorities()).isEmpty();
    }

    @Test
    void enforcementWordsImplyAssociations() {
        assertThat(Enforcement.parse(List.of("limits"))).isEqualTo(new Enforcement(true, true, false, false));
        assertThat(Enforcement.parse(List.of("qos"))).isEqualTo(new Enforcement(true, false, true, false));
        assertThat(Enforcement.parse(List.of("safe"))).isEqualTo(new Enforcement(true, true, false, false));
        // wckeys (and so all) also checks jobs' wckeys, and implies associations, as slurmctld reads it.
        assertThat(Enforcement.parse(List.of("all"))).isEqualTo(new Enforcement(true, true, true, true));
        assertThat(Enforcement.parse(List.of("wckeys"))).isEqualTo(new Enforcement(true, false, false, true));
        assertThat(Enforcement.parse(List.of("nojobs"))).isEqualTo(Enforcement.NONE);
    }

    @Test
    void tresCpuCount() {
        assertThat(Limits.cpus("mem=1G,cpu=4,node=1")).isEqualTo(4);
        assertThat(Limits.cpus("gres/gpu=2")).isEqualTo(Limits.NONE);
        assertThat(Limits.cpus("")).isEqualTo(Limits.NONE);
    }
}
