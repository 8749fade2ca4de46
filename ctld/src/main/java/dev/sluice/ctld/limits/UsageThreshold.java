package dev.sluice.ctld.limits;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.Job;

/**
 * A QOS's UsageThreshold, which Slurm 22.05 applies only to a QOS with the flag
 * EnforceUsageThreshold ({@link Qos#usageThreshold()} is unset otherwise): a job of an association
 * whose fair-share factor is below the threshold waits with {@code QOSUsageThreshold} until it is
 * not. Slurm checks it among the job's own limits, whatever AccountingStorageEnforce says, for a
 * job with an association and a QOS. Under priority/basic every association's factor is 1 (no
 * usage), so only a threshold above 1 holds a job (compat 232). Pure.
 */
public final class UsageThreshold {
    private UsageThreshold() {}

    /**
     * @param fairShare the factor of the job's association ({@link FairTree#forThreshold})
     * @return {@code QOSUsageThreshold}, or null when the job is not held back by it
     */
    public static JobReason reason(AccountingPolicy policy, Job job, double fairShare) {
        Qos qos = policy.qos().get(LimitUsage.nz(job.request().qos()));
        if (qos == null || qos.usageThreshold() == Qos.THRESHOLD_UNSET) {
            return null;
        }
        String user = job.request().owner().userName();
        String account = LimitUsage.nz(job.request().account());
        if (account.isEmpty()) {
            account = LimitUsage.nz(policy.defaultAccounts().get(user));
        }
        if (policy.userAssociation(account, user, job.terms().partition()).isEmpty()) {
            return null;
        }
        return fairShare < qos.usageThreshold() ? JobReason.QOS_USAGE_THRESHOLD : null;
    }
}
