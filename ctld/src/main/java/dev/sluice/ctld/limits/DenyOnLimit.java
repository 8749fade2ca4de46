package dev.sluice.ctld.limits;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.JobRequest;
import java.util.Optional;

/**
 * QOS Flags=DenyOnLimit: a job that would wait on its QOS's or its association's MaxTRES (per job)
 * or MaxWall is refused at submission instead, with the reason it would have waited with printed
 * by sbatch above "Job violates accounting/QOS policy" (compat 272). The association's limits are
 * checked too, under a QOS that has the flag and no limit of that kind itself, as the QOS's limit
 * otherwise replaces them (compat 270). A job without a time limit is not refused on MaxWall:
 * Slurm gives it the limit instead. Pure.
 */
public final class DenyOnLimit {
    private DenyOnLimit() {}

    /**
     * @param request the job as {@link Admission} admitted it (its account and QOS, its node cap)
     * @throws dev.sluice.common.error.SlurmException ESLURM_ACCOUNTING_POLICY with the reason
     *     when the job's QOS has the flag and the job is over one of these limits
     */
    public static void check(PolicyView view, JobRequest request, String partition) {
        if (!view.enforcement().limits() || request.qos() == null) {
            return;
        }
        AccountingPolicy policy = view.policy();
        Qos qos = policy.qos().get(request.qos());
        if (qos == null || !qos.denyOnLimit()) {
            return;
        }
        JobReason why = reason(policy, qos, request, partition);
        if (why != null) {
            throw Admission.refused(why);
        }
    }

    private static JobReason reason(AccountingPolicy policy, Qos qos, JobRequest request, String partition) {
        Limits q = qos.limits();
        Tres wanted = JobTres.of(request);
        String over = q.maxTresPerJob().exceeded(Tres.empty(), wanted);
        if (over != null) {
            return LimitGate.qosMaxPerJob(over);
        }
        long wall = request.timeLimitMinutes();
        boolean timed = wall != JobRequest.TIME_NOT_SET;
        if (timed && q.maxWallMinutes() != Limits.NONE && wall > q.maxWallMinutes()) {
            return JobReason.QOS_MAX_WALL_DURATION_PER_JOB_LIMIT;
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
