package dev.sluice.ctld.limits;

import dev.sluice.ctld.queue.FairShare;
import dev.sluice.ctld.queue.PriorityWeights;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The fair-share factor of Slurm 22.05's default algorithm, Fair Tree: the user associations
 * are ranked by walking the tree from root, at each level the siblings in decreasing LevelFS
 * (an account's users ranked where the account stands), and a user's factor is its rank over
 * the number of users, the first ranked highest. Siblings with the same LevelFS share a rank.
 * A user without an association in its job's account gets 0. Pure.
 */
public final class FairTree {
    private static final int MAX_DEPTH = 64;

    private FairTree() {}

    /** Each user association's factor, by {@code account} and user, from sshare's lines. */
    public static Map<String, Double> factors(List<ShareTree.Line> lines) {
        List<ShareTree.Line> users = new ArrayList<>();
        if (!lines.isEmpty()) {
            order(lines, 0, users, 0);
        }
        Map<String, Double> out = new HashMap<>();
        int count = users.size();
        int rank = count;
        int shared = count;
        ShareTree.Line previous = null;
        for (ShareTree.Line u : users) {
            boolean tie = previous != null
                    && previous.depth() == u.depth()
                    && previous.account().equals(u.account())
                    && Double.compare(previous.levelFs(), u.levelFs()) == 0;
            if (!tie) {
                shared = rank;
            }
            out.put(key(u.account(), u.user()), shared / (double) count);
            rank--;
            previous = u;
        }
        return out;
    }

    /** The factor of each job's association under {@code policy}, 0 for a job without one. */
    public static ToDoubleFunction<Job> ofJobs(
            AccountingPolicy policy, ClusterImage image, PriorityWeights w, long now) {
        Map<String, Double> byAssociation =
                shown(ShareTree.lines(policy, FairShare.of(image, w, now), true, Map.of(), w.lastPass(now)));
        return job -> {
            String user = job.request().owner().userName();
            String account = job.request().account();
            if (account == null || account.isEmpty()) {
                account = policy.defaultAccounts().get(user);
            }
            return account == null ? 0 : byAssociation.getOrDefault(key(account, user), 0.0);
        };
    }

    /**
     * The factor a QOS's UsageThreshold is held against ({@link UsageThreshold}), as Slurm's
     * job_limits_check takes it: the job's Fair Tree factor, or where that is 0 (an association
     * the decay thread has not reached yet) the classic {@code 2^-(EffectvUsage/NormShares)}, 0
     * without shares. Under priority/basic nothing is used, so every association has 1 (compat 232).
     */
    public static ToDoubleFunction<Job> forThreshold(
            AccountingPolicy policy, ClusterImage image, PriorityWeights w, long now) {
        if (!w.multifactor()) {
            return job -> 1.0;
        }
        List<ShareTree.Line> lines =
                ShareTree.lines(policy, FairShare.of(image, w, now), true, Map.of(), w.lastPass(now));
        Map<String, Double> ranked = shown(lines);
        Map<String, Double> classic = new HashMap<>();
        for (ShareTree.Line l : lines) {
            if (l.user() != null && !l.user().isEmpty()) {
                classic.put(
                        key(l.account(), l.user()),
                        l.normShares() > 0 ? Math.pow(2, -l.effectiveUsage() / l.normShares()) : 0);
            }
        }
        return job -> {
            String user = job.request().owner().userName();
            String account = job.request().account();
            if (account == null || account.isEmpty()) {
                account = policy.defaultAccounts().get(user);
            }
            String k = key(account, user);
            double factor = ranked.getOrDefault(k, 0.0);
            return factor != 0 ? factor : classic.getOrDefault(k, 0.0);
        };
    }

    /**
     * Each user association's FairShare as sshare shows it: its rank, 0 for one learned after the
     * last decay pass (compat 227, 253), which the ranking leaves out.
     */
    private static Map<String, Double> shown(List<ShareTree.Line> lines) {
        Map<String, Double> out = new HashMap<>();
        for (ShareTree.Line l : lines) {
            if (l.user() != null && !l.user().isEmpty()) {
                out.put(key(l.account(), l.user()), l.fairShare());
            }
        }
        return out;
    }

    static String key(String account, String user) {
        return account + "\u0000" + user;
    }

    /** Appends the users under the account line at {@code at} in rank order. */
    private static void order(List<ShareTree.Line> lines, int at, List<ShareTree.Line> users, int depth) {
        if (depth > MAX_DEPTH) {
            return;
        }
        int level = lines.get(at).depth();
        List<Integer> children = new ArrayList<>();
        for (int i = at + 1; i < lines.size() && lines.get(i).depth() > level; i++) {
            if (lines.get(i).depth() == level + 1) {
                children.add(i);
            }
        }
        // Stable: equal LevelFS keep the tree's order (users first, by name).
        children.sort(Comparator.comparingDouble((Integer i) -> lines.get(i).levelFs())
                .reversed());
        for (int i : children) {
            ShareTree.Line c = lines.get(i);
            if (c.user().isEmpty()) {
                order(lines, i, users, depth + 1);
            } else {
                users.add(c);
            }
        }
    }
}
