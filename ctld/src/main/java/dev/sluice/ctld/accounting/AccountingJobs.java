package dev.sluice.ctld.accounting;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.JobTimes;
import dev.sluice.ctld.state.ListedTres;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.AccountingJob;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * A job as accounting stores it ({@link AccountingJob}), built from the controller's job: the
 * fields sacct and sreport read, with the same TRES ({@link ListedTres}) and times the listings
 * show, and nothing of the squeue-shaped {@code JobInfo} (no request copy, no environment, no
 * listing-only fields).
 */
public final class AccountingJobs {
    private AccountingJobs() {}

    /**
     * @param partitionMemory the smallest RealMemory of a partition's nodes: a job that asked for
     *     no memory is counted with a whole node's
     * @param priority the priority the last scheduling pass gave the job, as squeue and sacct
     *     show it; 0 for none (a held job, one that no longer waits)
     * @param trackedLicenses the licenses AccountingStorageTRES names: those in the TRES
     */
    public static AccountingJob.Builder of(
            Job job, ToLongFunction<String> partitionMemory, long priority, Set<String> trackedLicenses) {
        return of(job, partitionMemory, priority, trackedLicenses, true);
    }

    /**
     * @param memoryConsumable whether memory is allocated ({@code SelectTypeParameters=CR_*_Memory}):
     *     without, AllocTRES count no memory (as {@link ListedTres#allocated} leaves it out)
     */
    public static AccountingJob.Builder of(
            Job job,
            ToLongFunction<String> partitionMemory,
            long priority,
            Set<String> trackedLicenses,
            boolean memoryConsumable) {
        JobRequest r = job.request();
        Allocation a = job.allocation();
        int cpus = ListedTres.cpus(job);
        // No node estimate: accounting records what the job asked for until it holds nodes.
        int nodes = ListedTres.nodes(job, cpus, 0);
        boolean array = job.array().arrayJobId() != 0;
        AccountingJob.Builder b = AccountingJob.newBuilder()
                .setJobId(job.id())
                .setSubmitTime(job.run().submitTime())
                .setDisplayId(array ? job.displayId() : "")
                .setArrayJobId(job.array().arrayJobId())
                .setArrayTaskId(
                        array && job.array().pendingTasks().isEmpty()
                                ? job.array().taskId()
                                : -1)
                .setName(r.name())
                .setUid(r.owner().uid())
                .setGid(r.owner().gid())
                .setAccount(r.account())
                .setQos(r.qos())
                .setPartition(job.terms().partition())
                .setEligibleTime(JobTimes.eligible(job))
                // A pending job's expected start is the scheduler's guess, not accounting's.
                .setStartTime(job.isPending() ? 0 : job.run().startTime())
                .setEndTime(job.run().endTime())
                .setSuspendedSeconds(job.suspendedSeconds())
                .setTimeLimitMinutes((int) job.terms().timeLimitMinutes())
                .setState(WireMapper.toWire(job.status().state()))
                .setExitStatus(job.status().exitStatus())
                .setReason(job.standingReason().slurmName())
                .setNumNodes(nodes)
                .setNumCpus(cpus)
                .setReqTres(ListedTres.requested(job, cpus, nodes, partitionMemory, trackedLicenses)
                        .format())
                .setWorkDir(r.launch().workDir())
                .setConstraint(r.placement().constraint().text())
                .setWckey(r.wckey().text())
                .setPriority((int) Math.min(SlurmLimits.MAX_UINT32, priority));
        if (a != null) {
            b.setNodeList(HostList.compress(a.nodeNames()))
                    .setAllocTres(ListedTres.allocated(a, r, memoryConsumable, trackedLicenses)
                            .format());
        }
        return b;
    }
}
