package dev.sluice.ctld.limits;

import dev.sluice.ctld.state.Job;
import java.util.HashMap;
import java.util.Map;

/**
 * What the jobs already in the controller use against the limits: running and active (pending
 * or running) jobs per user association and per user of a QOS, and CPUs per account (counted
 * on the account and on every account above it) and per QOS. A scheduling pass builds one and
 * adds each job it starts, so later jobs in the same pass see them.
 */
public final class LimitUsage {
    private final AccountingPolicy policy;
    private final Map<String, Integer> runningJobs = new HashMap<>();
    private final Map<String, Integer> activeJobs = new HashMap<>();
    private final Map<String, Long> accountCpus = new HashMap<>();
    private final Map<String, Long> userCpus = new HashMap<>();
    private final Map<String, Integer> qosRunningJobs = new HashMap<>();
    private final Map<String, Integer> qosActiveJobs = new HashMap<>();
    private final Map<String, Long> qosCpus = new HashMap<>();

    private LimitUsage(AccountingPolicy policy) {
        this.policy = policy;
    }

    public static LimitUsage of(AccountingPolicy policy, Iterable<Job> jobs) {
        LimitUsage u = new LimitUsage(policy);
        for (Job job : jobs) {
            if (job.isRunning()) {
                u.started(
                        job,
                        job.allocation() == null
                                ? cpusOf(job)
                                : job.allocation().totalCpus());
            }
            if (job.isRunning() || job.isPending()) {
                // A pending array record stands for all its tasks (Slurm counts each task).
                int n = job.isPending() && job.array().isArray() && job.array().taskId() < 0
                        ? job.array().pendingTasks().size()
                        : 1;
                u.activeJobs.merge(userKey(job), n, Integer::sum);
                u.qosActiveJobs.merge(qosKey(job), n, Integer::sum);
            }
        }
        return u;
    }

    /** Counts a job that starts now with {@code cpus} CPUs. */
    public void started(Job job, long cpus) {
        runningJobs.merge(userKey(job), 1, Integer::sum);
        userCpus.merge(userKey(job), cpus, Long::sum);
        qosRunningJobs.merge(qosKey(job), 1, Integer::sum);
        qosCpus.merge(nz(job.request().qos()), cpus, Long::sum);
        for (Association a : policy.lineage(nz(job.request().account()))) {
            accountCpus.merge(a.account(), cpus, Long::sum);
        }
    }

    int runningJobs(String account, String user) {
        return runningJobs.getOrDefault(account + '\0' + user, 0);
    }

    public int activeJobs(String account, String user) {
        return activeJobs.getOrDefault(account + '\0' + user, 0);
    }

    long runningJobsCpusOfUser(String account, String user) {
        return userCpus.getOrDefault(account + '\0' + user, 0L);
    }

    long accountCpus(String account) {
        return accountCpus.getOrDefault(account, 0L);
    }

    int qosRunningJobs(String qos, String user) {
        return qosRunningJobs.getOrDefault(qos + '\0' + user, 0);
    }

    public int qosActiveJobs(String qos, String user) {
        return qosActiveJobs.getOrDefault(qos + '\0' + user, 0);
    }

    long qosCpus(String qos) {
        return qosCpus.getOrDefault(qos, 0L);
    }

    /** The CPUs a job asks for: tasks times CPUs per task, as the limits count them. */
    public static long cpusOf(Job job) {
        return (long) job.request().effectiveTasks() * job.request().effectiveCpusPerTask();
    }

    private static String userKey(Job job) {
        return nz(job.request().account()) + '\0' + job.request().owner().userName();
    }

    private static String qosKey(Job job) {
        return nz(job.request().qos()) + '\0' + job.request().owner().userName();
    }

    static String nz(String s) {
        return s == null ? "" : s;
    }
}
