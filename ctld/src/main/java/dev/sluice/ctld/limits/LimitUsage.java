package dev.sluice.ctld.limits;

import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Job;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the jobs already in the controller use against the limits: running and active (pending
 * or running) jobs per user association, per account (counted on the account and on every
 * account above it) and per user of a QOS; and TRES held per user association, per account,
 * per QOS, per account within a QOS (only the job's own account: MaxTRESPerAccount) and per user
 * within a QOS (over all the user's accounts: MaxTRESPerUser). A scheduling pass builds one and adds each job it starts, so later jobs in the same
 * pass see them.
 *
 * <p>Against GrpTRES (of a QOS, a user association, an account), MaxTRESPerAccount and
 * MaxTRESPerUser a node counts once however many of the jobs counted there share it, as in Slurm
 * 22.05 (compat 167, 168, 198, 199): their node TRES is the number of distinct nodes those jobs
 * hold.
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
    private final Map<String, Tres> qosUserTres = new HashMap<>();
    private final Map<String, Map<String, Integer>> qosAccountNodes = new HashMap<>();
    private final Map<String, Map<String, Integer>> qosUserNodes = new HashMap<>();
    private final Map<String, Map<String, Integer>> qosNodes = new HashMap<>();
    private final Map<String, Map<String, Integer>> userNodes = new HashMap<>();
    private final Map<String, Map<String, Integer>> accountNodes = new HashMap<>();
    private final Map<String, Integer> qosAllRunningJobs = new HashMap<>();
    private final Map<String, Integer> qosAllActiveJobs = new HashMap<>();

    private LimitUsage(AccountingPolicy policy) {
        this.policy = policy;
    }

    public static LimitUsage of(AccountingPolicy policy, Iterable<Job> jobs) {
        LimitUsage u = new LimitUsage(policy);
        for (Job job : jobs) {
            if (job.isRunning()) {
                if (job.allocation() == null) {
                    u.started(job, tresOf(job), List.of());
                } else {
                    u.started(
                            job, JobTres.of(job.allocation()), job.allocation().nodeNames());
                }
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

    /** Counts a job that starts now holding {@code tres}, on nodes not named (each counts). */
    public void started(Job job, Tres tres) {
        started(job, tres, List.of());
    }

    /** Counts a job that starts now holding {@code tres} on {@code nodes}. */
    public void started(Job job, Tres tres, Collection<String> nodes) {
        runningJobs.merge(userKey(job), 1, Integer::sum);
        userTres.merge(userKey(job), tres, Tres::plus);
        qosRunningJobs.merge(qosKey(job), 1, Integer::sum);
        qosTres.merge(nz(job.request().qos()), tres, Tres::plus);
        qosAccountTres.merge(qosAccountKey(job), tres, Tres::plus);
        qosUserTres.merge(qosKey(job), tres, Tres::plus);
        hold(qosAccountNodes, qosAccountKey(job), nodes);
        hold(qosUserNodes, qosKey(job), nodes);
        hold(qosNodes, nz(job.request().qos()), nodes);
        hold(userNodes, userKey(job), nodes);
        qosAllRunningJobs.merge(nz(job.request().qos()), 1, Integer::sum);
        for (Association a : policy.lineage(nz(job.request().account()))) {
            accountTres.merge(a.account(), tres, Tres::plus);
            accountRunningJobs.merge(a.account(), 1, Integer::sum);
            hold(accountNodes, a.account(), nodes);
        }
    }

    /** Counts, per node, the jobs under {@code key} that hold it. */
    private static void hold(Map<String, Map<String, Integer>> held, String key, Collection<String> nodes) {
        for (String node : nodes) {
            held.computeIfAbsent(key, k -> new HashMap<>()).merge(node, 1, Integer::sum);
        }
    }

    /** Counts a job that starts now with {@code cpus} CPUs and nothing else. */
    public void started(Job job, long cpus) {
        started(job, Tres.empty().with("cpu", cpus), List.of());
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

    /** TRES the running jobs of a user association hold (its GrpTRES), nodes counted once. */
    Tres userTres(String account, String user) {
        return distinctNodes(userTres, userNodes, account + '\0' + user);
    }

    /** TRES the running jobs in an account or below hold (its GrpTRES), nodes counted once. */
    Tres accountTres(String account) {
        return distinctNodes(accountTres, accountNodes, account);
    }

    /** The nodes the running jobs of a user association hold. */
    Set<String> userNodes(String account, String user) {
        return userNodes.getOrDefault(account + '\0' + user, Map.of()).keySet();
    }

    /** The nodes the running jobs in {@code account} or below hold. */
    Set<String> accountNodes(String account) {
        return accountNodes.getOrDefault(account, Map.of()).keySet();
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

    /** TRES the running jobs of every user under a QOS hold (its GrpTRES), nodes counted once. */
    Tres qosTres(String qos) {
        return distinctNodes(qosTres, qosNodes, qos);
    }

    /** The nodes the running jobs under {@code qos} hold. */
    Set<String> qosNodes(String qos) {
        return qosNodes.getOrDefault(qos, Map.of()).keySet();
    }

    /**
     * TRES the running jobs of {@code account} hold under {@code qos} (its MaxTRESPerAccount),
     * their nodes counted once each.
     */
    Tres qosAccountTres(String qos, String account) {
        return distinctNodes(qosAccountTres, qosAccountNodes, qos + '\0' + account);
    }

    /**
     * TRES the running jobs of {@code user} hold under {@code qos}, in any account (its
     * MaxTRESPerUser), their nodes counted once each.
     */
    Tres qosUserTres(String qos, String user) {
        return distinctNodes(qosUserTres, qosUserNodes, qos + '\0' + user);
    }

    /** The nodes the running jobs of {@code account} hold under {@code qos}. */
    Set<String> qosAccountNodes(String qos, String account) {
        return qosAccountNodes.getOrDefault(qos + '\0' + account, Map.of()).keySet();
    }

    /** The nodes the running jobs of {@code user} hold under {@code qos}, in any account. */
    Set<String> qosUserNodes(String qos, String user) {
        return qosUserNodes.getOrDefault(qos + '\0' + user, Map.of()).keySet();
    }

    private static Tres distinctNodes(Map<String, Tres> sums, Map<String, Map<String, Integer>> nodes, String key) {
        Tres sum = sums.getOrDefault(key, Tres.empty());
        Map<String, Integer> held = nodes.get(key);
        if (held == null) {
            return sum;
        }
        // Jobs counted without node names (none once placed) keep their node counts.
        long unnamed = sum.get("node")
                - held.values().stream().mapToLong(Integer::longValue).sum();
        return sum.with("node", held.size() + Math.max(0, unnamed));
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

    private static String qosAccountKey(Job job) {
        return nz(job.request().qos()) + '\0' + nz(job.request().account());
    }

    private static String qosKey(Job job) {
        return nz(job.request().qos()) + '\0' + job.request().owner().userName();
    }

    static String nz(String s) {
        return s == null ? "" : s;
    }
}
