package dev.sluice.ctld.limits;

import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import java.util.Optional;

/**
 * Why a pending job may not start yet under AccountingStorageEnforce=limits, with Slurm 22.05's
 * reason names (job_state_reason_string): the QOS's limits first, then the association's
 * (Slurm's acct_policy order): wall time, TRES per job, GrpJobs and MaxJobs (per user), GrpTRES; TRES in
 * the order cpu, mem, node, GRES. A job whose association has gone since it was submitted waits
 * with {@code InvalidAccount}, as Slurm's does. Pure.
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
        JobTres wanted = LimitUsage.tresOf(job);
        long wall = job.timeLimitMinutes();
        boolean timed = wall < JobRequest.TIME_NOT_SET;
        Qos qos = policy.qos().get(LimitUsage.nz(job.request().qos()));
        if (qos != null) {
            Limits q = qos.limits();
            if (q.maxWallMinutes() != Limits.NONE && (!timed || wall > q.maxWallMinutes())) {
                return "QOSMaxWallDurationPerJobLimit";
            }
            String perJob = q.maxTresPerJob().exceeded(JobTres.NONE, wanted);
            if (perJob != null) {
                return qosMaxPerJob(perJob);
            }
            if (q.grpJobs() != Limits.NONE && usage.qosAllRunningJobs(qos.name()) >= q.grpJobs()) {
                return "QOSGrpJobsLimit";
            }
            if (q.maxJobs() != Limits.NONE && usage.qosRunningJobs(qos.name(), user) >= q.maxJobs()) {
                return "QOSMaxJobsPerUserLimit";
            }
            String grp = q.grpTres().exceeded(usage.qosTres(qos.name()), wanted);
            if (grp != null) {
                return qosGrp(grp);
            }
        }
        Association assoc = found.get();
        Limits l = policy.effectiveLimits(assoc);
        if (l.maxWallMinutes() != Limits.NONE && (!timed || wall > l.maxWallMinutes())) {
            return "AssocMaxWallDurationPerJobLimit";
        }
        String perJob = l.maxTresPerJob().exceeded(JobTres.NONE, wanted);
        if (perJob != null) {
            return assocMaxPerJob(perJob);
        }
        // Slurm walks up from the user association: its GrpJobs, its MaxJobs, the accounts' GrpJobs.
        if (l.grpJobs() != Limits.NONE && usage.runningJobs(account, user) >= l.grpJobs()) {
            return "AssocGrpJobsLimit";
        }
        if (l.maxJobs() != Limits.NONE && usage.runningJobs(account, user) >= l.maxJobs()) {
            return "AssocMaxJobsLimit";
        }
        for (Association up : policy.lineage(account)) {
            long cap = up.limits().grpJobs();
            if (cap != Limits.NONE && usage.accountRunningJobs(up.account()) >= cap) {
                return "AssocGrpJobsLimit";
            }
        }
        String grp = l.grpTres().exceeded(usage.userTres(account, user), wanted);
        if (grp != null) {
            return assocGrp(grp);
        }
        for (Association up : policy.lineage(account)) {
            String over = up.limits().grpTres().exceeded(usage.accountTres(up.account()), wanted);
            if (over != null) {
                return assocGrp(over);
            }
        }
        return null;
    }

    private static String assocGrp(String tres) {
        return switch (tres) {
            case "cpu" -> "AssocGrpCpuLimit";
            case "mem" -> "AssocGrpMemLimit";
            case "node" -> "AssocGrpNodeLimit";
            default -> "AssocGrpGRES";
        };
    }

    private static String assocMaxPerJob(String tres) {
        return switch (tres) {
            case "cpu" -> "AssocMaxCpuPerJobLimit";
            case "mem" -> "AssocMaxMemPerJob";
            case "node" -> "AssocMaxNodePerJobLimit";
            default -> "AssocMaxGRESPerJob";
        };
    }

    private static String qosGrp(String tres) {
        return switch (tres) {
            case "cpu" -> "QOSGrpCpuLimit";
            case "mem" -> "QOSGrpMemLimit";
            case "node" -> "QOSGrpNodeLimit";
            default -> "QOSGrpGRES";
        };
    }

    private static String qosMaxPerJob(String tres) {
        return switch (tres) {
            case "cpu" -> "QOSMaxCpuPerJobLimit";
            case "mem" -> "QOSMaxMemoryPerJob";
            case "node" -> "QOSMaxNodePerJobLimit";
            default -> "QOSMaxGRESPerJob";
        };
    }
}
