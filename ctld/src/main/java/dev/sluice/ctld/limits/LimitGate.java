package dev.sluice.ctld.limits;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * Why a pending job may not start yet under AccountingStorageEnforce=limits, with Slurm 22.05's
 * reason names (job_state_reason_string): the QOS's limits first, then the association's
 * (Slurm's acct_policy order): wall time, TRES per job, GrpJobs and MaxJobs (per user), GrpTRES, and
 * for a QOS last its MaxTRESPerAccount and MaxTRESPerUser ({@link #perNode} its MaxTRESPerNode); TRES in the order cpu, mem, node, GRES.
 * A TRES the QOS caps per job or per node, and MaxWall and MaxJobs where the QOS sets them, are not
 * checked against the association's of the same kind, looser or tighter: the QOS's holds (compat
 * 265, 270, 271; Slurm uses the first level that defines a limit). Against
 * GrpTRES, MaxTRESPerAccount and MaxTRESPerUser node= a node counts once however many of the jobs
 * counted there share it (LimitUsage), so before placement a job counts only the nodes it needs
 * beyond those held, and {@link #placed} checks the nodes it got. A job whose association has gone since it was submitted waits
 * with {@code InvalidAccount}, as Slurm's does. Pure.
 */
public final class LimitGate {
    private LimitGate() {}

    /** @return the pending reason, or null when the job is within its limits */
    public static JobReason reason(Enforcement enforce, AccountingPolicy policy, LimitUsage usage, Job job) {
        if (!enforce.associations()) {
            return null;
        }
        String user = job.request().owner().userName();
        String account = LimitUsage.nz(job.request().account());
        Optional<Association> found =
                policy.userAssociation(account, user, job.terms().partition());
        if (found.isEmpty()) {
            return JobReason.INVALID_ACCOUNT;
        }
        if (!enforce.limits()) {
            return null;
        }
        Tres wanted = LimitUsage.tresOf(job);
        long wall = job.terms().timeLimitMinutes();
        boolean timed = wall < JobRequest.TIME_NOT_SET;
        Qos qos = policy.qos().get(LimitUsage.nz(job.request().qos()));
        if (qos != null) {
            Limits q = qos.limits();
            if (q.maxWallMinutes() != Limits.NONE && (!timed || wall > q.maxWallMinutes())) {
                return JobReason.QOS_MAX_WALL_DURATION_PER_JOB_LIMIT;
            }
            String perJob = q.maxTresPerJob().exceeded(Tres.empty(), wanted);
            if (perJob != null) {
                return qosMaxPerJob(perJob);
            }
            if (q.grpJobs() != Limits.NONE && usage.qos(qos.name()).running() >= q.grpJobs()) {
                return JobReason.QOS_GRP_JOBS_LIMIT;
            }
            if (q.maxJobs() != Limits.NONE && usage.qosUser(qos.name(), user).running() >= q.maxJobs()) {
                return JobReason.QOS_MAX_JOBS_PER_USER_LIMIT;
            }
            Tres qosHolds = usage.qos(qos.name()).tres();
            String grp = q.grpTres().exceeded(qosHolds, reusing(wanted, qosHolds));
            if (grp != null) {
                return qosGrp(grp);
            }
            Tres accountHolds = usage.qosAccount(qos.name(), account).tres();
            String perAccount = qos.caps().perAccount().exceeded(accountHolds, reusing(wanted, accountHolds));
            if (perAccount != null) {
                return maxPerAccount(perAccount);
            }
            Tres userHolds = usage.qosUser(qos.name(), user).tres();
            String perUser = qos.caps().perUser().exceeded(userHolds, reusing(wanted, userHolds));
            if (perUser != null) {
                return qosMaxPerUser(perUser);
            }
        }
        Association assoc = found.get();
        Limits l = policy.effectiveLimits(assoc);
        // The QOS's MaxWall, MaxTRES and MaxJobs, where it sets them, replace the association's (compat 265, 270, 271).
        Limits q = qos == null ? Limits.UNSET : qos.limits();
        if (q.maxWallMinutes() == Limits.NONE
                && l.maxWallMinutes() != Limits.NONE
                && (!timed || wall > l.maxWallMinutes())) {
            return JobReason.ASSOC_MAX_WALL_DURATION_PER_JOB_LIMIT;
        }
        String perJob = l.maxTresPerJob().without(q.maxTresPerJob()).exceeded(Tres.empty(), wanted);
        if (perJob != null) {
            return assocMaxPerJob(perJob);
        }
        // Slurm walks up from the user association: its GrpJobs, its MaxJobs, the accounts' GrpJobs.
        if (l.grpJobs() != Limits.NONE && usage.association(account, user).running() >= l.grpJobs()) {
            return JobReason.ASSOC_GRP_JOBS_LIMIT;
        }
        if (q.maxJobs() == Limits.NONE
                && l.maxJobs() != Limits.NONE
                && usage.association(account, user).running() >= l.maxJobs()) {
            return JobReason.ASSOC_MAX_JOBS_LIMIT;
        }
        for (Association up : policy.lineage(account)) {
            long cap = up.limits().grpJobs();
            if (cap != Limits.NONE && usage.account(up.account()).running() >= cap) {
                return JobReason.ASSOC_GRP_JOBS_LIMIT;
            }
        }
        Tres userHolds = usage.association(account, user).tres();
        String grp = l.grpTres().exceeded(userHolds, reusing(wanted, userHolds));
        if (grp != null) {
            return assocGrp(grp);
        }
        for (Association up : policy.lineage(account)) {
            Tres holds = usage.account(up.account()).tres();
            String over = up.limits().grpTres().exceeded(holds, reusing(wanted, holds));
            if (over != null) {
                return assocGrp(over);
            }
        }
        return null;
    }

    /**
     * Why a job within its other limits may not start: what it asks on each node (its counts
     * divided by its least node count, whole numbers, as Slurm divides what it selected) is over
     * its QOS's MaxTRESPerNode, with 22.05's reason ({@code QOSMaxCpuPerNode},
     * {@code QOSMaxMemoryPerNode}, {@code QOSMaxGRESPerNode}; compat 230, 231), or else over its
     * association's (its own, else the nearest account's: inherited like MaxTRES; compat 251, 252)
     * for the TRES the QOS leaves uncapped (compat 265).
     * Memory counts only where it is consumable: Slurm checks what the allocation holds, and
     * without CR_*_Memory that is no memory at all (compat 231: a {@code --mem=2000} job runs
     * under {@code mem=1000}).
     *
     * @return the reason, or null when the job is within the caps
     */
    public static JobReason perNode(Enforcement enforce, AccountingPolicy policy, Job job, boolean memoryConsumable) {
        if (!enforce.limits()) {
            return null;
        }
        Qos qos = policy.qos().get(LimitUsage.nz(job.request().qos()));
        TresLimits qosCaps = qos == null ? TresLimits.NONE : qos.perNode();
        TresLimits assocCaps = policy.userAssociation(
                        LimitUsage.nz(job.request().account()),
                        job.request().owner().userName(),
                        job.terms().partition())
                .map(a -> policy.effectiveLimits(a).maxTresPerNode().without(qosCaps))
                .orElse(TresLimits.NONE);
        if (qosCaps.caps().isEmpty() && assocCaps.caps().isEmpty()) {
            return null;
        }
        Tres wanted = LimitUsage.tresOf(job);
        if (!memoryConsumable) {
            wanted = wanted.with("mem", 0);
        }
        Tres each = JobTres.perNode(wanted);
        String over = qosCaps.exceeded(Tres.empty(), each);
        if (over != null) {
            return qosMaxPerNode(over);
        }
        over = assocCaps.exceeded(Tres.empty(), each);
        return over == null ? null : assocMaxPerNode(over);
    }

    /**
     * Before placement a job may yet land on nodes already held where it counts (its QOS, user,
     * account), which count once: it adds only the nodes it needs beyond those ({@link #placed}
     * counts the nodes it got).
     */
    private static Tres reusing(Tres wanted, Tres holds) {
        return wanted.with("node", Math.max(0, wanted.get("node") - holds.get("node")));
    }

    /**
     * Why a job placed on {@code nodes} may not start after all: the nodes new to where it
     * counts would take it past a node= cap, as Slurm checks after selecting nodes, in its order:
     * the QOS's GrpTRES, MaxTRESPerAccount and MaxTRESPerUser, then GrpTRES of the user
     * association and of each account above it; null when they would not.
     */
    public static JobReason placed(
            Enforcement enforce, AccountingPolicy policy, LimitUsage usage, Job job, Collection<String> nodes) {
        if (!enforce.limits()) {
            return null;
        }
        String account = LimitUsage.nz(job.request().account());
        String user = job.request().owner().userName();
        Qos qos = policy.qos().get(LimitUsage.nz(job.request().qos()));
        if (qos != null) {
            String name = qos.name();
            if (over(qos.limits().grpTres(), usage.qos(name), nodes)) {
                return JobReason.QOS_GRP_NODE_LIMIT;
            }
            if (over(qos.caps().perAccount(), usage.qosAccount(name, account), nodes)) {
                return JobReason.MAX_NODE_PER_ACCOUNT;
            }
            if (over(qos.caps().perUser(), usage.qosUser(name, user), nodes)) {
                return JobReason.QOS_MAX_NODE_PER_USER_LIMIT;
            }
        }
        Optional<Association> found =
                policy.userAssociation(account, user, job.terms().partition());
        if (found.isEmpty()) {
            return null;
        }
        Limits l = policy.effectiveLimits(found.get());
        if (over(l.grpTres(), usage.association(account, user), nodes)) {
            return JobReason.ASSOC_GRP_NODE_LIMIT;
        }
        for (Association up : policy.lineage(account)) {
            if (over(up.limits().grpTres(), usage.account(up.account()), nodes)) {
                return JobReason.ASSOC_GRP_NODE_LIMIT;
            }
        }
        return null;
    }

    private static boolean over(TresLimits caps, LimitUsage.Held holds, Collection<String> nodes) {
        long cap = caps.get("node");
        if (cap == Limits.NONE) {
            return false;
        }
        Set<String> held = holds.nodes();
        long added = nodes.stream().filter(n -> !held.contains(n)).count();
        return held.size() + added > cap;
    }

    private static JobReason assocGrp(String tres) {
        return switch (tres) {
            case "cpu" -> JobReason.ASSOC_GRP_CPU_LIMIT;
            case "mem" -> JobReason.ASSOC_GRP_MEM_LIMIT;
            case "node" -> JobReason.ASSOC_GRP_NODE_LIMIT;
            default -> JobReason.ASSOC_GRP_GRES;
        };
    }

    static JobReason assocMaxPerJob(String tres) {
        return switch (tres) {
            case "cpu" -> JobReason.ASSOC_MAX_CPU_PER_JOB_LIMIT;
            case "mem" -> JobReason.ASSOC_MAX_MEM_PER_JOB;
            case "node" -> JobReason.ASSOC_MAX_NODE_PER_JOB_LIMIT;
            default -> JobReason.ASSOC_MAX_GRES_PER_JOB;
        };
    }

    private static JobReason qosGrp(String tres) {
        return switch (tres) {
            case "cpu" -> JobReason.QOS_GRP_CPU_LIMIT;
            case "mem" -> JobReason.QOS_GRP_MEM_LIMIT;
            case "node" -> JobReason.QOS_GRP_NODE_LIMIT;
            default -> JobReason.QOS_GRP_GRES;
        };
    }

    static JobReason maxPerAccount(String tres) {
        return switch (tres) {
            case "cpu" -> JobReason.MAX_CPU_PER_ACCOUNT;
            case "mem" -> JobReason.MAX_MEMORY_PER_ACCOUNT;
            case "node" -> JobReason.MAX_NODE_PER_ACCOUNT;
            default -> JobReason.MAX_GRES_PER_ACCOUNT;
        };
    }

    static JobReason qosMaxPerUser(String tres) {
        return switch (tres) {
            case "cpu" -> JobReason.QOS_MAX_CPU_PER_USER_LIMIT;
            case "mem" -> JobReason.QOS_MAX_MEMORY_PER_USER;
            case "node" -> JobReason.QOS_MAX_NODE_PER_USER_LIMIT;
            default -> JobReason.QOS_MAX_GRES_PER_USER;
        };
    }

    /** A job asks one node per node: node= is over only at 0, a cap no recording has shown. */
    static JobReason qosMaxPerNode(String tres) {
        return switch (tres) {
            case "cpu" -> JobReason.QOS_MAX_CPU_PER_NODE;
            case "mem" -> JobReason.QOS_MAX_MEMORY_PER_NODE;
            default -> JobReason.QOS_MAX_GRES_PER_NODE;
        };
    }

    private static JobReason assocMaxPerNode(String tres) {
        return switch (tres) {
            case "cpu" -> JobReason.ASSOC_MAX_CPU_PER_NODE;
            case "mem" -> JobReason.ASSOC_MAX_MEM_PER_NODE;
            default -> JobReason.ASSOC_MAX_GRES_PER_NODE;
        };
    }

    static JobReason qosMaxPerJob(String tres) {
        return switch (tres) {
            case "cpu" -> JobReason.QOS_MAX_CPU_PER_JOB_LIMIT;
            case "mem" -> JobReason.QOS_MAX_MEMORY_PER_JOB;
            case "node" -> JobReason.QOS_MAX_NODE_PER_JOB_LIMIT;
            default -> JobReason.QOS_MAX_GRES_PER_JOB;
        };
    }
}
