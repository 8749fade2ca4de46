package dev.sluice.ctld.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
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
import dev.sluice.ctld.state.JobRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The limits beyond cpu: GrpTRES and MaxTRES for mem, node and GRES, GrpJobs and GrpSubmitJobs,
 * on associations and QOS, with Slurm 22.05's reason names (slurm_protocol_defs.c
 * job_state_reason_string: AssocGrpMemLimit, AssocGrpNodeLimit, AssocGrpGRES, AssocMaxMemPerJob,
 * AssocMaxNodePerJobLimit, AssocMaxGRESPerJob, AssocGrpJobsLimit, QOSGrpGRES, QOSMaxMemoryPerJob,
 * QOSMaxNodePerJobLimit, ...). Two nodes of 8 CPUs, 16000 MB and 2 GPUs each.
 */
class TestTresLimits {
    private static final long NOW = 1_700_000_000L;
    private static final long NO = Limits.NONE;
    private static final Scheduler.SelectDefaults SELECT = Scheduler.SelectDefaults.builder()
            .memoryConsumable(true)
            .gresNames(java.util.Set.of("gpu"))
            .build();
    private static final Enforcement ALL = Enforcement.parse(List.of("associations", "limits", "qos"));

    private ClusterState state;
    private long seq;

    private static GresInventory twoGpus() {
        return new GresInventory(List.of(
                new GresUnit("gpu", "", 0, "/dev/nvidia0", List.of(), 1, true),
                new GresUnit("gpu", "", 1, "/dev/nvidia1", List.of(), 1, true)));
    }

    @BeforeEach
    void cluster() {
        ClusterFixture cluster = ClusterFixture.aCluster()
                .nodes(2)
                .cpus(8)
                .memoryMb(16000)
                .gres(twoGpus())
                .at(NOW - 100, NOW)
                .build();
        state = cluster.state();
        seq = cluster.sequence();
    }

    static Limits grp(String tres) {
        return Limits.builder().grpTres(TresLimits.parse(tres)).build();
    }

    static Limits maxPerJob(String tres) {
        return Limits.builder().maxTresPerJob(TresLimits.parse(tres)).build();
    }

    static Limits jobs(long grpJobs, long grpSubmit) {
        return Limits.builder().grpJobs(grpJobs).grpSubmitJobs(grpSubmit).build();
    }

    static AccountingPolicy policy(Limits user, Limits account, Qos... qos) {
        Map<String, Qos> q = new java.util.HashMap<>();
        q.put("normal", Qos.builder("normal").build());
        for (Qos one : qos) {
            q.put(one.name(), one);
        }
        return new AccountingPolicy(
                1,
                List.of(
                        Association.builder("root")
                                .qos(List.of("normal", "high"))
                                .build(),
                        Association.builder("physics")
                                .parent("root")
                                .limits(account)
                                .build(),
                        Association.builder("physics")
                                .user("user1000")
                                .parent("physics")
                                .limits(user)
                                .build(),
                        Association.builder("physics")
                                .user("user1001")
                                .parent("physics")
                                .limits(user)
                                .build()),
                Map.of("user1000", "physics", "user1001", "physics"),
                q,
                UserWckeys.NONE);
    }

    private int submit(AccountingPolicy p, JobRequest r) {
        ControlResult<Integer> out = JobControl.builder(SELECT)
                .maxArraySize(1000)
                .limits(new PolicyView(ALL, p, false))
                .build()
                .submit(state, r, NOW - 10);
        out.records().forEach(rec -> state.replay(++seq, rec));
        return out.response();
    }

    private SchedulePlan pass(AccountingPolicy p) {
        return new Scheduler(
                        SchedulerConfig.builder(SELECT).reservationDepth(10).build())
                .schedule(state.image(), NOW, ALL, p);
    }

    private static Builders.JobBuilder job() {
        return Builders.aJob().timeLimit(10);
    }

    @Test
    void grpTresGpusOnTheAccountCountsEveryUserBelowIt() {
        AccountingPolicy p = policy(Limits.UNSET, grp("gres/gpu=2"));
        int a = submit(p, job().gres("gpu:1").build());
        int b = submit(p, job().gres("gpu:1").uid(1001).build());
        int c = submit(p, job().gres("gpu:1").build());
        SchedulePlan plan = pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(a, b);
        assertThat(plan.pendingReasons()).containsEntry(c, JobReason.ASSOC_GRP_GRES);
    }

    @Test
    void grpTresMemAndNodesOnTheUserAssociation() {
        AccountingPolicy p = policy(grp("mem=3G,node=1"), Limits.UNSET);
        int first = submit(p, job().memPerNode(2000).build());
        int second = submit(p, job().memPerNode(2000).build());
        int wide = submit(p, job().nodes(2).build());
        SchedulePlan plan = pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(first);
        assertThat(plan.pendingReasons())
                .containsEntry(second, JobReason.ASSOC_GRP_MEM_LIMIT)
                .containsEntry(wide, JobReason.ASSOC_GRP_NODE_LIMIT);
    }

    @Test
    void maxTresPerJobForMemNodesAndGpusInheritedFromTheAccount() {
        AccountingPolicy p = policy(maxPerJob("mem=1000"), maxPerJob("node=1,gres/gpu=1"));
        int mem = submit(p, job().memPerNode(2000).build());
        int nodes = submit(p, job().nodes(2).build());
        int gpus = submit(p, job().gres("gpu:2").build());
        int fits = submit(p, job().memPerNode(1000).gres("gpu:1").build());
        SchedulePlan plan = pass(p);
        assertThat(plan.pendingReasons())
                .containsEntry(mem, JobReason.ASSOC_MAX_MEM_PER_JOB)
                .containsEntry(nodes, JobReason.ASSOC_MAX_NODE_PER_JOB_LIMIT)
                .containsEntry(gpus, JobReason.ASSOC_MAX_GRES_PER_JOB);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(fits);
    }

    @Test
    void grpJobsOnTheAccountAndOnTheUser() {
        AccountingPolicy p = policy(Limits.UNSET, jobs(2, NO));
        int a = submit(p, job().build());
        int b = submit(p, job().uid(1001).build());
        int c = submit(p, job().build());
        SchedulePlan plan = pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(a, b);
        assertThat(plan.pendingReasons()).containsEntry(c, JobReason.ASSOC_GRP_JOBS_LIMIT);

        AccountingPolicy own = policy(jobs(0, NO), Limits.UNSET);
        assertThat(pass(own).pendingReasons()).containsEntry(a, JobReason.ASSOC_GRP_JOBS_LIMIT);
    }

    @Test
    void grpSubmitJobsRefusesAtSubmitForEveryUserOfTheAccount() {
        AccountingPolicy p = policy(Limits.UNSET, jobs(NO, 2));
        submit(p, job().build());
        submit(p, job().uid(1001).build());
        assertThatThrownBy(() -> submit(p, job().build()))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)")
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.ACCOUNTING_POLICY);
        assertThat(state.jobs()).hasSize(2);
    }

    /** sbatch and srun print the reason above the refusal (compat 282). */
    private void refusedWith(AccountingPolicy p, JobRequest r, JobReason why) {
        assertThatThrownBy(() -> submit(p, r)).isInstanceOfSatisfying(SlurmException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.ACCOUNTING_POLICY);
            assertThat(e.userMessage()).isEqualTo(why.slurmName());
        });
    }

    @Test
    void grpSubmitJobsRefusalsNameTheirLevel() {
        AccountingPolicy onUser = policy(jobs(NO, 1), Limits.UNSET);
        submit(onUser, job().build());
        refusedWith(onUser, job().build(), JobReason.ASSOC_GRP_SUBMIT_JOBS_LIMIT);
        AccountingPolicy onAccount = policy(Limits.UNSET, jobs(NO, 1));
        refusedWith(onAccount, job().uid(1001).build(), JobReason.ASSOC_GRP_SUBMIT_JOBS_LIMIT);
        Qos capped = Qos.builder("high")
                .limits(Limits.builder().grpSubmitJobs(1).build())
                .build();
        AccountingPolicy onQos = policy(Limits.UNSET, Limits.UNSET, capped);
        submit(onQos, job().qos("high").uid(1001).build());
        refusedWith(onQos, job().qos("high").build(), JobReason.QOS_GRP_SUBMIT_JOBS_LIMIT);
    }

    @Test
    void qosGrpTresAndMaxTresPerJob() {
        Qos high = Qos.builder("high")
                .limits(Limits.builder()
                        .grpTres(TresLimits.parse("gres/gpu=1"))
                        .maxTresPerJob(TresLimits.parse("mem=1G,node=1"))
                        .build())
                .build();
        AccountingPolicy p = policy(Limits.UNSET, Limits.UNSET, high);
        int g1 = submit(p, job().qos("high").gres("gpu:1").build());
        int g2 = submit(p, job().qos("high").gres("gpu:1").build());
        int mem = submit(p, job().qos("high").memPerNode(2048).build());
        int nodes = submit(p, job().qos("high").nodes(2).build());
        SchedulePlan plan = pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(g1);
        assertThat(plan.pendingReasons())
                .containsEntry(g2, JobReason.QOS_GRP_GRES)
                .containsEntry(mem, JobReason.QOS_MAX_MEMORY_PER_JOB)
                .containsEntry(nodes, JobReason.QOS_MAX_NODE_PER_JOB_LIMIT);
    }

    @Test
    void qosGrpJobsCountsEveryUserAndGrpSubmitJobsRefuses() {
        Qos high = Qos.builder("high")
                .limits(Limits.builder().grpJobs(1).grpSubmitJobs(3).build())
                .build();
        AccountingPolicy p = policy(Limits.UNSET, Limits.UNSET, high);
        int a = submit(p, job().qos("high").build());
        int b = submit(p, job().qos("high").uid(1001).build());
        submit(p, job().qos("high").uid(1001).build());
        assertThatThrownBy(() -> submit(p, job().qos("high").build()))
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.ACCOUNTING_POLICY);
        SchedulePlan plan = pass(p);
        assertThat(plan.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(a);
        assertThat(plan.pendingReasons()).containsEntry(b, JobReason.QOS_GRP_JOBS_LIMIT);
    }

    @Test
    void tresLimitsParseSacctmgrSpellings() {
        TresLimits t = TresLimits.parse("cpu=4,mem=8G,gres/gpu=2,node=-1,Mem=");
        assertThat(t.get("cpu")).isEqualTo(4);
        assertThat(t.get("mem")).isEqualTo(8192);
        assertThat(t.get("gres/gpu")).isEqualTo(2);
        assertThat(t.get("node")).isEqualTo(Limits.NONE);
        assertThat(TresLimits.parse("mem=1500").get("mem")).isEqualTo(1500);
        assertThat(TresLimits.parse("mem=2T").get("mem")).isEqualTo(2L * 1024 * 1024);
        assertThatThrownBy(() -> TresLimits.parse("cpu=four")).isInstanceOf(NumberFormatException.class);
        assertThat(TresLimits.parse("cpu=2")
                        .orElse(TresLimits.parse("cpu=8,node=3"))
                        .caps())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", 2L, "node", 3L));
    }

    @Test
    void aPendingJobAsksForItsTasksNodesMemoryAndGpus() {
        JobRequest r = job().nodes(2)
                .tasks(4)
                .cpusPerTask(2)
                .memPerNode(1000)
                .gres("gpu:2")
                .build();
        Tres t = JobTres.of(r);
        assertThat(t.asMap())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", 8L, "node", 2L, "mem", 2000L, "gres/gpu", 4L));
    }
}
