package dev.sluice.ctld.rpc;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.ctld.control.Caller;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Association;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GetNodesResponse;
import dev.sluice.protocol.v1.GetPartitionsRequest;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.JobInfo;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The read-only questions (squeue, sinfo, scontrol show), answered from one published image:
 * never the loop, never a lock, so a burst of pollers cannot stall the controller.
 *
 * @param startTime what Slurm reports as the data's update time
 * @param privateJobs {@code PrivateData=jobs}: others' jobs are hidden from non-operators
 * @param trackedLicenses the licenses AccountingStorageTRES names: those in jobs' TRES
 * @param allocNodes a submitting host's name as the controller resolves it ({@link AllocNodes})
 * @param policy the associations the controller holds: a listed job's association id
 */
record ImageQueries(
        ClusterImage image,
        long startTime,
        long now,
        boolean privateJobs,
        boolean memoryConsumable,
        Set<String> trackedLicenses,
        UnaryOperator<String> allocNodes,
        AccountingPolicy policy) {
    GetJobsResponse jobs(Caller caller, GetJobsRequest request) {
        // PrivateData=jobs: others' jobs are not there at all for a non-operator, as in Slurm.
        boolean hideOthers = privateJobs && !caller.isOperator();
        GetJobsResponse.Builder out = GetJobsResponse.newBuilder().setUpdateTime(startTime);
        var shown = InfoMapper.Shown.of(image, memoryConsumable, trackedLicenses);
        if (request.getJobIdsCount() == 0) {
            Set<Integer> family = Set.copyOf(request.getFamilyIdsList());
            List<Job> listed = image.jobs().stream()
                    .filter(j -> !request.getActiveOnly() || !j.status().state().isFinished() || image.isCompleting(j))
                    .filter(j -> family.isEmpty()
                            || family.contains(j.id())
                            || (j.array().isArray() && family.contains(j.array().arrayJobId())))
                    .filter(j -> !hideOthers
                            || caller.mayActOnJobOf(j.request().owner().uid()))
                    .toList();
            // In Slurm's order, which squeue's sorts keep where they see no difference.
            List<Job> ordered = family.size() == 1
                    ? SlurmListOrder.one(family.iterator().next(), listed)
                    : SlurmListOrder.all(listed);
            ordered.forEach(j -> out.addJobs(withAllocNode(j, InfoMapper.job(image, j, false, shown, now))));
            return out.build();
        }
        for (int id : request.getJobIdsList()) {
            Job job = image.job(id)
                    .filter(j -> !hideOthers
                            || caller.mayActOnJobOf(j.request().owner().uid()))
                    .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_JOB_ID));
            // A job's script and environment are its owner's and the operators' alone: Slurm
            // 22.05 answers anyone else's REQUEST_BATCH_SCRIPT with ESLURM_USER_ID_MISSING.
            if (request.getIncludeScript()
                    && !caller.mayActOnJobOf(job.request().owner().uid())) {
                throw new SlurmException(ErrorCode.USER_ID_MISSING);
            }
            out.addJobs(withAllocNode(job, InfoMapper.job(image, job, request.getIncludeScript(), shown, now)));
        }
        return out.build();
    }

    /** The job as listed: where it was submitted from, the association it runs under. */
    private JobInfo withAllocNode(Job held, JobInfo job) {
        String user = held.request().owner().userName();
        String account = held.request().account();
        if (account == null || account.isEmpty()) {
            account = policy.defaultAccounts().get(user);
        }
        long association = account == null
                ? 0
                : policy.userAssociation(account, user, held.terms().partition())
                        .map(Association::id)
                        .orElse(0L);
        return job.toBuilder()
                .setAllocNode(allocNodes.apply(job.getSpec().getSubmitHost()))
                .setAssociationId(association)
                .build();
    }

    GetNodesResponse nodes(GetNodesRequest request) {
        GetNodesResponse.Builder out = GetNodesResponse.newBuilder().setUpdateTime(startTime);
        if (request.getNamesCount() == 0) {
            image.nodes().forEach(v -> out.addNodes(NodeInfoMapper.node(image, v, now)));
            return out.build();
        }
        for (String expr : request.getNamesList()) {
            for (String name : HostList.expand(expr)) {
                out.addNodes(NodeInfoMapper.node(
                        image,
                        image.node(name).orElseThrow(() -> new SlurmException(ErrorCode.INVALID_NODE_NAME)),
                        now));
            }
        }
        return out.build();
    }

    GetPartitionsResponse partitions(GetPartitionsRequest request) {
        GetPartitionsResponse.Builder out = GetPartitionsResponse.newBuilder().setUpdateTime(startTime);
        Set<String> wanted = new HashSet<>(request.getNamesList());
        image.partitions().stream()
                .filter(p -> wanted.isEmpty() || wanted.contains(p.name()))
                .forEach(p -> out.addPartitions(InfoMapper.partition(image, p)));
        if (!wanted.isEmpty() && out.getPartitionsCount() == 0) {
            throw new SlurmException(ErrorCode.INVALID_PARTITION_NAME);
        }
        return out.build();
    }
}
