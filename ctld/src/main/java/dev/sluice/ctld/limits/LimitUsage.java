package dev.sluice.ctld.limits;

import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Job;
import java.util.HashMap;
import java.util.Map;

/**
 * What the jobs already in the controller use against the limits: running and active (pending
 * or running) jobs per user association, per account (counted on the account and on every
 * account above it) and per user of a QOS; and TRES held per user association, per account,
 * per QOS and per account within a QOS (only the job's own account: MaxTRESPerAccount). A scheduling pass builds one and adds each job it starts, so later jobs in the same
 * pass see them.
 */
public final class LimitUsage {
    private final AccountingPolicy policy;
    private final Map<String, Integer> runningJobs = new HashMap<>();
    private final Map<String, Integer> activeJobs = new HashMap<>();
    private final Map<String, Integer> accountRunningJobs = new HashMap<>();
    private final Map<String, Integer> accountActiveJobs = new HashMap<>();
    private final Map<String, Tres> accountTres = new HashMap<>();
    private final Map<String, Tres> userTres = new HashMap<>();
    private final Map<String, Integer> qosRunningJobs = new HashMap<>();
    private final Map<String, Integer> qosActiveJobs = new HashMap<>();
    private final Map<String, Tres> qosTres = new HashMap<>();
    private final Map<String, Tres> qosAccountTres = new HashMap<>();
    private final Map<String, Integer> qosAllRunningJobs = new HashMap<>();
    private final Map<String, Integer> qosAllActiveJobs = new HashMap<>();

    private LimitUsage(AccountingPolicy policy) {
        this.policy = policy;
    }

    public static LimitUsage of(AccountingPolicy policy, Iterable<Job> jobs) {
        LimitUsage u = new LimitUsage(policy);
        for (Job job : jobs) {
            if (job.isRunning()) {
                u.started(job, job.allocation() == null ? tresOf(job) : JobTres.of(job.allocation()));
            }
            if (job.isRunning() || job.isPending()) {
                // A pending array record stands for all its tasks (Slurm counts each task).
                int n = job.isPending() && job.array().isArray() && job.array().taskId() < 0
                        ? job.array().pendingTasks().size()
                        : 1;
                u.submitted(job, n);
            }
        }
        return u;
    }

    /** Counts {@code n} jobs that are (or would be) pending or running. */
    public void submitted(Job job, int n) {
        activeJobs.merge(userKey(job), n, Integer::sum);
        qosActiveJobs.merge(qosKey(job), n, Integer::sum);
        qosAllActiveJobs.merge(nz(job.request().qos()), n, Integer::sum);
        for (Association a : policy.lineage(nz(job.request().account()))) {
            accountActiveJobs.merge(a.account(), n, Integer::sum);
        }
    }

    /** Counts a job that starts now holding {@code tres}. */
    public void started(Job job, Tres tres) {
        runningJobs.merge(userKey(job), 1, Integer::sum);
        userTres.merge(userKey(job), tres, Tres::plus);
        qosRunningJobs.merge(qosKey(job), 1, Integer::sum);
        qosTres.merge(nz(job.request().qos()), tres, Tres::plus);
        qosAccountTres.merge(nz(job.request().qos()) + '\0' + nz(job.request().account()), tres, Tres::plus);
        qosAllRunningJobs.merge(nz(job.request().qos()), 1, Integer::sum);
        for (Association a : policy.lineage(nz(job.request().account()))) {
            accountTres.merge(a.account(), tres, Tres::plus);
            accountRunningJobs.merge(a.account(), 1, Integer::sum);
        }
    }

    /** Counts a job that starts now with {@code cpus} CPUs and nothing else. */
    public void started(Job job, long cpus) {
        started(job, Tres.empty().with("cpu", cpus));
    }

    int runningJobs(String account, String user) {
        return runningJobs.getOrDefault(account + '\0' + user, 0);
    }

    public int activeJobs(String account, String user) {
        return activeJobs.getOrDefault(account + '\0' + user, 0);
    }

    int accountRunningJobs(String account) {
        return accountRunningJobs.getOrDefault(account, 0);
    }

    int accountActiveJobs(String account) {
        return accountActiveJobs.getOrDefault(account, 0);
    }

    Tres userTres(String account, String user) {
        return userTres.getOrDefault(account + '\0' + user, Tres.empty());
    }

    Tres accountTres(String account) {
        return accountTres.getOrDefault(account, Tres.empty());
    }

    int qosRunningJobs(String qos, String user) {
        return qosRunningJobs.getOrDefault(qos + '\0' + user, 0);
    }

    public int qosActiveJobs(String qos, String user) {
        return qosActiveJobs.getOrDefault(qos + '\0' + user, 0);
    }

    /** Running jobs of every user under a QOS (its GrpJobs). */
    int qosAllRunningJobs(String qos) {
        return qosAllRunningJobs.getOrDefault(qos, 0);
    }

    /** Pending and running jobs of every user under a QOS (its GrpSubmitJobs). */
    int qosAllActiveJobs(String qos) {
        return qosAllActiveJobs.getOrDefault(qos, 0);
    }

    Tres qosTres(String qos) {
        return qosTres.getOrDefault(qos, Tres.empty());
    }

    /** TRES the running jobs of {@code account} hold under {@code qos} (its MaxTRESPerAccount). */
    Tres qosAccountTres(String qos, String account) {
        return qosAccountTres.getOrDefault(qos + '\0' + account, Tres.empty());
    }

    /** The CPUs a job asks for: tasks times CPUs per task, as the limits count them. */
    public static long cpusOf(Job job) {
        return (long) job.request().effectiveTasks() * job.request().effectiveCpusPerTask();
    }

    /** The TRES a pending job asks for. */
    public static Tres tresOf(Job job) {
        return JobTres.of(job.request());
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
