package dev.sluice.ctld.limits;

import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Job;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the jobs already in the controller use against the limits, per holder a job counts
 * against ({@link Scope}): its running and active (pending or running) jobs, the TRES its running
 * jobs hold and the nodes they hold. A job counts against its user association, its account and
 * every account above it, its QOS, its account within the QOS (MaxTRESPerAccount: the job's own
 * account only) and its user within the QOS (MaxTRESPerUser: over all the user's accounts). A
 * scheduling pass builds one and adds each job it starts, so later jobs in the same pass see
 * them.
 *
 * <p>A holder's node TRES is the number of distinct nodes its running jobs hold: against GrpTRES,
 * MaxTRESPerAccount and MaxTRESPerUser a node counts once however many of the jobs counted there
 * share it, as in Slurm 22.05 (compat 167, 168, 198, 199).
 */
public final class LimitUsage {
    /** The kinds of holder a job's usage counts against. */
    enum Scope {
        ASSOCIATION,
        ACCOUNT,
        QOS,
        QOS_ACCOUNT,
        QOS_USER
    }

    /** One holder: {@code second} is empty for the scopes named by one name. */
    private record Key(Scope scope, String first, String second) {}

    /**
     * What a holder's jobs use. Usage only grows while a pass lasts (it is built anew for each),
     * so the set of nodes held is enough to count each once.
     */
    static final class Held {
        private static final Held NONE = new Held();

        private int running;
        private int active;
        private Tres tres = Tres.empty();
        private final Set<String> nodes = new HashSet<>();

        int running() {
            return running;
        }

        int active() {
            return active;
        }

        /** The TRES its running jobs hold, each node counted once. */
        Tres tres() {
            return tres.with("node", nodes.size());
        }

        Set<String> nodes() {
            return Collections.unmodifiableSet(nodes);
        }
    }

    private final AccountingPolicy policy;
    private final Map<Key, Held> held = new HashMap<>();

    private LimitUsage(AccountingPolicy policy) {
        this.policy = policy;
    }

    public static LimitUsage of(AccountingPolicy policy, Iterable<Job> jobs) {
        LimitUsage u = new LimitUsage(policy);
        for (Job job : jobs) {
            if (job.isRunning()) {
                // A running job holds the allocation it started with (JobStarted carries one).
                u.started(job, JobTres.of(job.allocation()), job.allocation().nodeNames());
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
        for (Key key : keys(job)) {
            holder(key).active += n;
        }
    }

    /** Counts a job that starts now holding {@code tres} on {@code nodes}. */
    public void started(Job job, Tres tres, Collection<String> nodes) {
        for (Key key : keys(job)) {
            Held h = holder(key);
            h.running++;
            h.tres = h.tres.plus(tres);
            h.nodes.addAll(nodes);
        }
    }

    /** The holders {@code job} counts against. */
    private List<Key> keys(Job job) {
        String account = nz(job.request().account());
        String user = job.request().owner().userName();
        String qos = nz(job.request().qos());
        List<Key> keys = new ArrayList<>();
        keys.add(new Key(Scope.ASSOCIATION, account, user));
        keys.add(new Key(Scope.QOS, qos, ""));
        keys.add(new Key(Scope.QOS_ACCOUNT, qos, account));
        keys.add(new Key(Scope.QOS_USER, qos, user));
        for (Association a : policy.lineage(account)) {
            keys.add(new Key(Scope.ACCOUNT, a.account(), ""));
        }
        return keys;
    }

    private Held holder(Key key) {
        return held.computeIfAbsent(key, k -> new Held());
    }

    private Held find(Scope scope, String first, String second) {
        return held.getOrDefault(new Key(scope, first, second), Held.NONE);
    }

    /** The user association's jobs (its GrpTRES, GrpJobs, MaxJobs, MaxSubmitJobs). */
    Held association(String account, String user) {
        return find(Scope.ASSOCIATION, account, user);
    }

    /** The jobs in {@code account} or any account below it. */
    Held account(String account) {
        return find(Scope.ACCOUNT, account, "");
    }

    /** The jobs of every user under a QOS (its GrpTRES, GrpJobs, GrpSubmitJobs). */
    Held qos(String qos) {
        return find(Scope.QOS, qos, "");
    }

    /** The jobs of {@code account} under {@code qos} (its MaxTRESPerAccount). */
    Held qosAccount(String qos, String account) {
        return find(Scope.QOS_ACCOUNT, qos, account);
    }

    /**
     * The jobs of {@code user} under {@code qos}, in any account (its MaxTRESPerUser, MaxJobs,
     * MaxSubmitJobs).
     */
    Held qosUser(String qos, String user) {
        return find(Scope.QOS_USER, qos, user);
    }

    /** The TRES a pending job asks for. */
    public static Tres tresOf(Job job) {
        return JobTres.of(job.request());
    }

    static String nz(String s) {
        return s == null ? "" : s;
    }
}
