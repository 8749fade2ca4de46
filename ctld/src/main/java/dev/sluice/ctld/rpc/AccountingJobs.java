package dev.sluice.ctld.rpc;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.AccountingJob;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * A job as accounting stores it ({@link AccountingJob}), built from the controller's job: the
 * fields sacct and sreport read, with the same TRES and times the listings show, and nothing of
 * the squeue-shaped {@code JobInfo} (no request copy, no environment, no listing-only fields).
 */
public final class AccountingJobs {
    private AccountingJobs() {}

    /**
     * @param partitionMemory the smallest RealMemory of a partition's nodes: a job that asked for
     *     no memory is counted with a whole node's
     */
    public static AccountingJob.Builder of(Job job, ToLongFunction<String> partitionMemory) {
        JobRequest r = job.request();
        Allocation a = job.allocation();
        boolean holds = a != null;
        int cpus = holds ? a.totalCpus() : r.effectiveTasks() * r.effectiveCpusPerTask();
        int nodes = holds ? a.nodes().size() : InfoMapper.pendingNodes(r, cpus, 0);
        boolean array = job.array().arrayJobId() != 0;
        AccountingJob.Builder b = AccountingJob.newBuilder()
                .setJobId(job.id())
                .setSubmitTime(job.submitTime())
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
                .setPartition(job.partition())
                .setEligibleTime(JobTimes.eligible(job))
                // A pending job's expected start is the scheduler's guess, not accounting's.
                .setStartTime(job.isPending() ? 0 : job.startTime())
                .setEndTime(job.endTime())
                .setTimeLimitMinutes((int) job.timeLimitMinutes())
                .setState(WireMapper.toWire(job.state()))
                .setExitStatus(job.exitStatus())
                .setReason(ClusterImage.reasonOf(job, Map.of()).slurmName())
                .setNumNodes(nodes)
                .setNumCpus(cpus)
                .setReqTres(InfoMapper.withLicenses(
                                InfoMapper.withGres(
                                        InfoMapper.tres(
                                                cpus,
                                                InfoMapper.requestedMemory(
                                                        r, cpus, nodes, partitionMemory, job.partition()),
                                                nodes),
                                        r,
                                        nodes),
                                r)
                        .format())
                .setWorkDir(r.workDir())
                .setConstraint(r.constraint().text());
        if (holds) {
            b.setNodeList(HostList.compress(a.nodeNames()))
                    .setAllocTres(InfoMapper.withLicenses(
                                    InfoMapper.withGres(
                                            InfoMapper.tres(
                                                    a.totalCpus(),
                                                    a.totalMemoryMb(),
                                                    a.nodes().size()),
                                            a),
                                    r)
                            .format());
        }
        return b;
    }
}
