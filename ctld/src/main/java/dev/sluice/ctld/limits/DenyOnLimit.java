package dev.sluice.ctld.limits;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.JobRequest;
import java.util.Optional;

/**
 * QOS Flags=DenyOnLimit: a job that would wait on one of its QOS's Max limits, or on its
 * association's MaxTRES (per job) or MaxWall, is refused at submission instead, with the reason it
 * would have waited with printed by sbatch and srun above "Job violates accounting/QOS policy"
 * (compat 272, 281). The QOS's limits in Slurm 22.05's order: MaxTRESPerAccount and
 * MaxTRESPerUser (the job alone against the cap: what others hold does not refuse it), MaxWall,
 * MaxTRESPerJob, MaxTRESPerNode (what the job asks divided by its node count); TRES in the order
 * cpu, mem, node, GRES. The association's limits are checked too, under a QOS that has the flag
 * and no limit of that kind itself, as the QOS's limit otherwise replaces them (compat 270). A job
 * without a time limit is not refused on MaxWall: Slurm gives it the limit instead. A job without
 * a memory request counts all of each node's memory here (compat 281: refused under
 * {@code MaxTRESPerNode=mem=7999} on nodes of 8000 MB, accepted under 8000), while a pending job
 * counts none ({@link LimitGate}). Pure.
 */
public final class DenyOnLimit {
    private DenyOnLimit() {}

    /**
     * @param request the job as {@link Admission} admitted it (its account and QOS, its node cap)
     * @param nodeMemoryMb what a job without a memory request counts on each node: the largest
     *     RealMemory among the partition's nodes
     * @throws dev.sluice.common.error.SlurmException ESLURM_ACCOUNTING_POLICY with the reason
     *     when the job's QOS has the flag and the job is over one of these limits
     */
    public static void check(PolicyView view, JobRequest request, String partition, long nodeMemoryMb) {
        if (!view.enforcement().limits() || request.qos() == null) {
            return;
        }
        AccountingPolicy policy = view.policy();
        Qos qos = policy.qos().get(request.qos());
        if (qos == null || !qos.denyOnLimit()) {
            return;
        }
        JobReason why = reason(policy, qos, request, partition, nodeMemoryMb);
        if (why != null) {
            throw Admission.refused(why);
        }
    }

    /** What the job counts at submission: without a memory request, each node's whole memory. */
    static Tres wanted(JobRequest request, long nodeMemoryMb) {
        Tres wanted = JobTres.of(request);
        if (request.memory().perNodeMb() <= 0 && request.memory().perCpuMb() <= 0) {
            wanted = wanted.with("mem", nodeMemoryMb * wanted.get("node"));
        }
        return wanted;
    }

    private static JobReason reason(
            AccountingPolicy policy, Qos qos, JobRequest request, String partition, long nodeMemoryMb) {
        Limits q = qos.limits();
        Tres wanted = wanted(request, nodeMemoryMb);
        String over = qos.caps().perAccount().exceeded(Tres.empty(), wanted);
        if (over != null) {
            return LimitGate.maxPerAccount(over);
        }
        over = qos.caps().perUser().exceeded(Tres.empty(), wanted);
        if (over != null) {
            return LimitGate.qosMaxPerUser(over);
        }
        long wall = request.timeLimitMinutes();
        boolean timed = wall != JobRequest.TIME_NOT_SET;
        if (timed && q.maxWallMinutes() != Limits.NONE && wall > q.maxWallMinutes()) {
            return JobReason.QOS_MAX_WALL_DURATION_PER_JOB_LIMIT;
        }
        over = q.maxTresPerJob().exceeded(Tres.empty(), wanted);
        if (over != null) {
            return LimitGate.qosMaxPerJob(over);
        }
        over = qos.perNode().exceeded(Tres.empty(), JobTres.perNode(wanted));
        if (over != null) {
            return LimitGate.qosMaxPerNode(over);
        }
        String account = request.account() == null ? "" : request.account();
        Optional<Association> assoc = account.isEmpty()
                ? Optional.empty()
                : policy.userAssociation(account, request.owner().userName(), partition);
        if (assoc.isEmpty()) {
            return null;
        }
        Limits l = policy.effectiveLimits(assoc.get());
        over = l.maxTresPerJob().without(q.maxTresPerJob()).exceeded(Tres.empty(), wanted);
        if (over != null) {
            return LimitGate.assocMaxPerJob(over);
        }
        if (timed
                && q.maxWallMinutes() == Limits.NONE
                && l.maxWallMinutes() != Limits.NONE
                && wall > l.maxWallMinutes()) {
            return JobReason.ASSOC_MAX_WALL_DURATION_PER_JOB_LIMIT;
        }
        return null;
    }
}
