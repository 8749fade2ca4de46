package dev.sluice.ctld.limits;

import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import java.util.Optional;

/**
 * Why a pending job may not start yet under AccountingStorageEnforce=limits, with Slurm's
 * reason names: the QOS's limits first, then the association's (Slurm's acct_policy order).
 * A job whose association has gone since it was submitted waits with
 * {@code InvalidAccount}, as Slurm's does. Pure.
 */
public final class LimitGate {
    private LimitGate() {}

    /** @return the pending reason, or null when the job is within its limits */
    public static String reason(Enforcement enforce, AccountingPolicy policy, LimitUsage usage, Job job) {
        if (!enforce.associations()) {
            return null;
        }
        String user = job.request().owner().userName();
        String account = LimitUsage.nz(job.request().account());
        Optional<Association> found = policy.userAssociation(account, user, job.partition());
        if (found.isEmpty()) {
            return "InvalidAccount";
        }
        if (!enforce.limits()) {
            return null;
        }
        long cpus = LimitUsage.cpusOf(job);
        long wall = job.timeLimitMinutes();
        boolean timed = wall < JobRequest.TIME_NOT_SET;
        Qos qos = policy.qos().get(LimitUsage.nz(job.request().qos()));
        if (qos != null) {
            Limits q = qos.limits();
            if (q.maxWallMinutes() != Limits.NONE && (!timed || wall > q.maxWallMinutes())) {
                return "QOSMaxWallDurationPerJobLimit";
            }
            if (q.maxCpusPerJob() != Limits.NONE && cpus > q.maxCpusPerJob()) {
                return "QOSMaxCpuPerJobLimit";
            }
            if (q.maxJobs() != Limits.NONE && usage.qosRunningJobs(qos.name(), user) >= q.maxJobs()) {
                return "QOSMaxJobsPerUserLimit";
            }
            if (q.grpCpus() != Limits.NONE && usage.qosCpus(qos.name()) + cpus > q.grpCpus()) {
                return "QOSGrpCpuLimit";
            }
        }
        Association assoc = found.get();
        Limits l = policy.effectiveLimits(assoc);
        if (l.maxWallMinutes() != Limits.NONE && (!timed || wall > l.maxWallMinutes())) {
            return "AssocMaxWallDurationPerJobLimit";
        }
        if (l.maxCpusPerJob() != Limits.NONE && cpus > l.maxCpusPerJob()) {
            return "AssocMaxCpuPerJobLimit";
        }
        if (l.maxJobs() != Limits.NONE && usage.runningJobs(account, user) >= l.maxJobs()) {
            return "AssocMaxJobsLimit";
        }
        if (l.grpCpus() != Limits.NONE && usage.runningJobsCpusOfUser(account, user) + cpus > l.grpCpus()) {
            return "AssocGrpCpuLimit";
        }
        for (Association up : policy.lineage(account)) {
            long cap = up.limits().grpCpus();
            if (cap != Limits.NONE && usage.accountCpus(up.account()) + cpus > cap) {
                return "AssocGrpCpuLimit";
            }
        }
        return null;
    }
}
