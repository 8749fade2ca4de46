package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.rpc.InfoMapper;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ArrayPart;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.TaskSet;
import dev.sluice.protocol.v1.AccountingJob;
import dev.sluice.protocol.v1.JobInfo;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * Accounting's job record carries, field for field, what the controller stored when it shipped
 * the squeue-shaped JobInfo instead: the listing's mapping is the oracle, for jobs pending,
 * running, ended, held, in arrays, with memory, GRES, licenses and constraints.
 */
class TestAccountingJobs {
    private static final ToLongFunction<String> NODE_MEMORY = p -> 8000;
    /** AccountingStorageTRES=license/matlab: the jobs' other licenses are not TRES. */
    private static final java.util.Set<String> TRACKED = java.util.Set.of("matlab");

    private static final Allocation TWO_NODES =
            new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 512, 1), Allocation.NodeShare.of("n2", 2, 512, 1)));

    private static List<Job> jobs() {
        JobRequest simple = Builders.aJob().name("simple").build();
        JobRequest rich = Builders.aJob()
                .name("rich")
                .tasks(4)
                .memPerNode(2000)
                .gres("gpu:2")
                .build()
                .withLicenses(Licenses.parse("matlab:2,comsol"));
        JobRequest held = Builders.aJob()
                .name("held")
                .hold()
                .build()
                .withWckey(dev.sluice.ctld.state.JobWckey.userDefault("w218a"));
        Job pending = Job.submitted(7, simple, "debug", 60, 1000);
        Job richPending = Job.submitted(8, rich, "gpu", 120, 1000);
        Job running = richPending.started(TWO_NODES, 1010, 120, "gpu");
        Job done = running.ended(JobState.COMPLETED, 0, 1100, JobReason.NONE);
        Job failed = Job.submitted(9, simple, "debug", 60, 1000)
                .started(TWO_NODES, 1005, 60, "debug")
                .ended(JobState.FAILED, 1 << 8, 1006, JobReason.NON_ZERO_EXIT_CODE);
        Job heldJob = Job.submitted(10, held, "debug", 60, 1000);
        Job arrayTask = Job.submitted(12, simple, "debug", 60, 1000, new ArrayPart(11, 3, TaskSet.EMPTY, 0))
                .started(TWO_NODES, 1001, 60, "debug");
        return List.of(pending, richPending, running, done, failed, heldJob, arrayTask);
    }

    /** What a pass might have given the job: a plain one, and one past Slurm's uint32. */
    private static long priorityOf(Job job) {
        return job.id() == 8 ? 5_000_000_000L : job.id() * 1_000L;
    }

    /** The image the listing reads, with the priority a scheduling pass gave the job. */
    private static ClusterImage withPriority(ClusterImage i, Job job, long priority) {
        return new ClusterImage(
                i.sequence(),
                i.nextJobId(),
                i.tables(),
                i.queue().withPriorities(Map.of(job.id(), priority)),
                i.runs());
    }

    @Test
    void everyFieldIsWhatTheListingsMappingGave() {
        for (Job job : jobs()) {
            long priority = priorityOf(job);
            JobInfo info = InfoMapper.jobBuilder(
                            withPriority(ClusterImage.ofJob(job), job, priority), job, false, NODE_MEMORY, TRACKED, 0)
                    .build();
            AccountingJob acct =
                    AccountingJobs.of(job, NODE_MEMORY, priority, TRACKED).build();
            boolean array = info.getArrayJobId() != 0;
            assertThat(acct.getJobId()).as("job id").isEqualTo(info.getJobId());
            assertThat(acct.getSubmitTime()).isEqualTo(info.getSubmitTime());
            assertThat(acct.getDisplayId()).isEqualTo(array ? info.getDisplayId() : "");
            assertThat(acct.getArrayJobId()).isEqualTo(info.getArrayJobId());
            assertThat(acct.getArrayTaskId()).isEqualTo(array ? info.getArrayTaskId() : -1);
            assertThat(acct.getName()).isEqualTo(info.getSpec().getName());
            assertThat(acct.getUid()).isEqualTo(info.getSpec().getOwner().getUid());
            assertThat(acct.getGid()).isEqualTo(info.getSpec().getOwner().getGid());
            assertThat(acct.getAccount()).isEqualTo(info.getSpec().getAccount());
            assertThat(acct.getQos()).isEqualTo(info.getSpec().getQos());
            assertThat(acct.getPartition()).isEqualTo(info.getPartition());
            assertThat(acct.getEligibleTime()).isEqualTo(info.getEligibleTime());
            assertThat(acct.getStartTime()).isEqualTo(info.getStartTime());
            assertThat(acct.getEndTime()).isEqualTo(info.getEndTime());
            assertThat(acct.getTimeLimitMinutes()).isEqualTo(info.getTimeLimitMinutes());
            assertThat(acct.getState()).isEqualTo(info.getState());
            assertThat(acct.getExitStatus()).isEqualTo(info.getExitStatus());
            assertThat(acct.getReason()).as("reason of " + job.id()).isEqualTo(info.getReason());
            assertThat(acct.getNodeList()).isEqualTo(info.getNodeList());
            assertThat(acct.getNumNodes()).isEqualTo(info.getNumNodes());
            assertThat(acct.getNumCpus()).isEqualTo(info.getNumCpus());
            assertThat(acct.getReqTres()).as("ReqTRES of " + job.id()).isEqualTo(info.getReqTres());
            assertThat(acct.getAllocTres()).as("AllocTRES of " + job.id()).isEqualTo(info.getAllocTres());
            assertThat(acct.getWorkDir()).isEqualTo(info.getWorkDir());
            assertThat(acct.getConstraint()).isEqualTo(info.getSpec().getConstraint());
            assertThat(acct.getWckey()).isEqualTo(info.getSpec().getWckey());
            assertThat(acct.getPriority()).as("priority of " + job.id()).isEqualTo(info.getPriority());
            // Memory not a consumable resource (CR_Core): the same AllocTRES but its mem item.
            AccountingJob cores = AccountingJobs.of(job, NODE_MEMORY, priority, TRACKED, false)
                    .build();
            assertThat(cores.getAllocTres())
                    .as("AllocTRES of " + job.id() + " under CR_Core")
                    .isEqualTo(withoutMemory(info.getAllocTres()));
            assertThat(cores.toBuilder().setAllocTres(acct.getAllocTres()).build())
                    .isEqualTo(acct);
        }
    }

    private static String withoutMemory(String tres) {
        if (tres.isEmpty()) {
            return tres;
        }
        Map<String, Long> counts =
                new java.util.LinkedHashMap<>(Tres.parse(tres).asMap());
        counts.remove("mem");
        return Tres.of(counts).format();
    }

    @Test
    void theJobsAreNotTrivial() {
        // The oracle compares something: TRES with GRES and licenses, a held reason, an array task.
        List<AccountingJob> all = jobs().stream()
                .map(j -> AccountingJobs.of(j, NODE_MEMORY, priorityOf(j), TRACKED)
                        .build())
                .toList();
        assertThat(all).anySatisfy(a -> assertThat(a.getReqTres()).contains("gres/gpu=2", "license/matlab=2"));
        // Only what AccountingStorageTRES names is a TRES (Slurm 22.05, compat scenario 173).
        assertThat(all)
                .allSatisfy(a -> assertThat(a.getReqTres() + a.getAllocTres()).doesNotContain("comsol"));
        assertThat(all)
                .anySatisfy(
                        a -> assertThat(a.getAllocTres()).isEqualTo("cpu=4,mem=1G,node=2,billing=4,license/matlab=2"));
        assertThat(all).anySatisfy(a -> assertThat(a.getReason()).isEqualTo("JobHeldUser"));
        assertThat(all).anySatisfy(a -> assertThat(a.getDisplayId()).isEqualTo("11_3"));
        assertThat(all).anySatisfy(a -> assertThat(a.getPriority()).isEqualTo(7_000));
        // Slurm's priority is a uint32: a larger one shows as its largest value, as squeue's does.
        assertThat(all)
                .anySatisfy(
                        a -> assertThat(Integer.toUnsignedLong(a.getPriority())).isEqualTo(0xffffffffL));
    }
}
