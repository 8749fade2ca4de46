package dev.sluice.ctld.queue;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The fair-share factor the scheduler orders by, and the usage it comes from: each user's
 * CPU-seconds up to the last priority calculation that found the job running
 * ({@link PriorityWeights#chargedUntil}), every
 * job's halved each PriorityDecayHalfLife since it ended (or now; never where that is 0); every user
 * with a job holds an equal share, and a user's factor is {@code 2^(-usage/total/share)}. One
 * owner: the priority factors and sshare both read it from here. Pure.
 */
public final class FairShare {
    private final Map<Integer, Double> usage;
    private final Map<String, Double> usageByName;
    private final Map<String, Double> usageByAccount = new HashMap<>();
    private final double total;
    private final double share;

    private FairShare(Map<Integer, Double> usage, Map<String, Double> usageByName, double share) {
        this.usage = usage;
        this.usageByName = usageByName;
        this.total = usage.values().stream().mapToDouble(Double::doubleValue).sum();
        this.share = share;
    }

    public static FairShare of(ClusterImage image, PriorityWeights w, long now) {
        Map<Integer, Double> usage = new HashMap<>();
        Map<String, Double> byName = new HashMap<>();
        Map<String, Double> byAccount = new HashMap<>();
        // Every user with a job in the table, counted in the same walk: a pass reads this
        // once per batch, over every job kept for MinJobAge.
        Set<Integer> users = new HashSet<>();
        int lastUid = -1;
        for (Job job : image.jobs()) {
            int uid = job.request().owner().uid();
            if (users.isEmpty() || uid != lastUid) {
                users.add(uid);
                lastUid = uid;
            }
            if (job.allocation() == null || job.run().startTime() == 0) {
                continue;
            }
            long end = w.chargedUntil(job.run().startTime(), job.run().endTime(), now);
            if (end <= job.run().startTime()) {
                continue;
            }
            double cpuSeconds = (double) job.allocation().totalCpus()
                    * Math.max(0, end - job.run().startTime());
            // PriorityDecayHalfLife=0: usage never decays (Slurm's slurm.conf(5)).
            double decay = w.decayHalfLifeSeconds() <= 0
                    ? 1
                    : Math.pow(0.5, Math.max(0, now - end) / (double) w.decayHalfLifeSeconds());
            usage.merge(job.request().owner().uid(), cpuSeconds * decay, Double::sum);
            byName.merge(job.request().owner().userName(), cpuSeconds * decay, Double::sum);
            byAccount.merge(
                    key(job.request().account(), job.request().owner().userName()), cpuSeconds * decay, Double::sum);
        }
        FairShare out = new FairShare(usage, byName, users.isEmpty() ? 1 : 1.0 / users.size());
        out.usageByAccount.putAll(byAccount);
        return out;
    }

    /** The user's factor in [0, 1]: 1 without usage. */
    public double factor(int uid) {
        double used = total == 0 ? 0 : usage.getOrDefault(uid, 0.0) / total;
        return Math.pow(2, -used / share);
    }

    /** The same factor, for a user known by name (sshare's lines); 1 for a user without jobs. */
    public double factorOf(String userName) {
        double used = total == 0 ? 0 : usageByName.getOrDefault(userName, 0.0) / total;
        return Math.pow(2, -used / share);
    }

    /**
     * The user's decayed CPU-seconds in {@code account}; {@code orUnnamed}: with those of their
     * jobs that named no account (their default account's).
     */
    public double usageOf(String account, String userName, boolean orUnnamed) {
        double u = usageByAccount.getOrDefault(key(account, userName), 0.0);
        return orUnnamed ? u + usageByAccount.getOrDefault(key("", userName), 0.0) : u;
    }

    private static String key(String account, String user) {
        return (account == null ? "" : account) + "\u0000" + user;
    }

    /** The user's decayed CPU-seconds. */
    public double usageOf(String userName) {
        return usageByName.getOrDefault(userName, 0.0);
    }
}
