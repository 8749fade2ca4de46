package dev.sluice.ctld.limits;

import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.queue.FairShare;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * sshare's lines: the association tree from root down (an account's users first, by name, then
 * its sub-accounts, by name, as Slurm 22.05 lists them), each with its shares and decayed usage.
 * Under {@code priority/multifactor} NormShares is the share among siblings, EffectvUsage the
 * part of the parent's usage, NormUsage the part of the cluster's, LevelFS NormShares over
 * EffectvUsage, and a user's FairShare the factor the scheduler orders by ({@link FairTree});
 * under {@code priority/basic} no usage is kept and nothing is normalized (Slurm leaves those
 * blank or 0).
 *
 * <p>Slurm computes an association's values only at its decay passes (every PriorityCalcPeriod):
 * one learned after the last pass ({@link AccountingPolicy#learnedAt}) shows no NormUsage,
 * EffectvUsage and LevelFS 0 and, for a user, FairShare 0 until the next (compat 227). Pure.
 */
public final class ShareTree {
    /** A value Slurm prints as nothing. */
    public static final double BLANK = Double.NaN;

    private static final int MAX_DEPTH = 64;

    /**
     * One line; {@code user} empty for an account's own; {@link #BLANK} where nothing is printed.
     *
     * @param depth 0 for root
     */
    public record Line(
            String account,
            String user,
            int depth,
            long rawShares,
            double normShares,
            double rawUsage,
            double normUsage,
            double effectiveUsage,
            double fairShare,
            double levelFs,
            Map<String, Long> tresRunMins,
            long id) {

        /** {@code a}'s line at {@code depth}, its shares as dbd gave them. */
        static Builder builder(Association a, int depth) {
            return new Builder(a.account(), a.user(), depth, a.id())
                    .rawShares(a.shares())
                    .fairShare(a.isUser() ? 0 : BLANK);
        }

        /** This line with the FairShare the ranking gave it. */
        Line withFairShare(double value) {
            return new Builder(account, user, depth, id)
                    .rawShares(rawShares)
                    .normShares(normShares)
                    .rawUsage(rawUsage)
                    .normUsage(normUsage)
                    .effectiveUsage(effectiveUsage)
                    .fairShare(value)
                    .levelFs(levelFs)
                    .tresRunMins(tresRunMins)
                    .build();
        }

        /**
         * Collects a line; what is not set is as sshare shows an association whose values are
         * not computed: no usage or run minutes, NormShares and NormUsage blank, EffectvUsage and
         * LevelFS 0 (FairShare: {@link #builder} gives a user 0 and an account blank).
         */
        static final class Builder {
            private final String account;
            private final String user;
            private final int depth;
            private final long id;
            private long rawShares;
            private double normShares = BLANK;
            private double rawUsage;
            private double normUsage = BLANK;
            private double effectiveUsage;
            private double fairShare;
            private double levelFs;
            private Map<String, Long> tresRunMins = Map.of();

            private Builder(String account, String user, int depth, long id) {
                this.account = account;
                this.user = user;
                this.depth = depth;
                this.id = id;
            }

            Builder rawShares(long value) {
                this.rawShares = value;
                return this;
            }

            Builder normShares(double value) {
                this.normShares = value;
                return this;
            }

            Builder rawUsage(double value) {
                this.rawUsage = value;
                return this;
            }

            Builder normUsage(double value) {
                this.normUsage = value;
                return this;
            }

            Builder effectiveUsage(double value) {
                this.effectiveUsage = value;
                return this;
            }

            Builder fairShare(double value) {
                this.fairShare = value;
                return this;
            }

            Builder levelFs(double value) {
                this.levelFs = value;
                return this;
            }

            Builder tresRunMins(Map<String, Long> value) {
                this.tresRunMins = value;
                return this;
            }

            Line build() {
                return new Line(
                        account,
                        user,
                        depth,
                        rawShares,
                        normShares,
                        rawUsage,
                        normUsage,
                        effectiveUsage,
                        fairShare,
                        levelFs,
                        tresRunMins,
                        id);
            }
        }
    }

    private ShareTree() {}

    /**
     * What running jobs hold times the minutes they have left, per association ({@code account}
     * and user): sshare's TRESRunMins (a job without time limit counts none).
     */
    public static Map<String, Map<String, Long>> runMinutes(ClusterImage image, long now) {
        Map<String, Map<String, Long>> out = new HashMap<>();
        for (Job job : image.jobs()) {
            if (job.status().state() != JobState.RUNNING
                    || job.allocation() == null
                    || job.terms().timeLimitMinutes() == JobRequest.TIME_INFINITE) {
                continue;
            }
            long left = Math.max(0, job.run().startTime() + job.terms().timeLimitMinutes() * 60 - now) / 60;
            Map<String, Long> mins = out.computeIfAbsent(
                    key(job.request().account(), job.request().owner().userName()), k -> new TreeMap<>());
            JobTres.of(job.allocation()).asMap().forEach((tres, n) -> mins.merge(tres, n * left, Long::sum));
            mins.merge("billing", job.allocation().totalCpus() * left, Long::sum);
        }
        return out;
    }

    private static String key(String account, String user) {
        return (account == null ? "" : account) + "\u0000" + user;
    }

    /** The lines with every association computed (no calculation clock). */
    public static List<Line> lines(AccountingPolicy policy, FairShare usage, boolean multifactor) {
        return lines(policy, usage, multifactor, Map.of(), Long.MAX_VALUE);
    }

    /**
     * @param runMinutes {@link #runMinutes}
     * @param lastPass when the last decay pass ran: associations learned after it are not computed yet
     */
    public static List<Line> lines(
            AccountingPolicy policy,
            FairShare usage,
            boolean multifactor,
            Map<String, Map<String, Long>> runMinutes,
            long lastPass) {
        List<Line> out = new ArrayList<>();
        Association root = policy.accountAssociation("root").orElse(null);
        if (root == null) {
            return out;
        }
        Walk walk = new Walk(policy, usage, multifactor, out, runMinutes, lastPass);
        double total = walk.usage(root, 0);
        walk.total = total;
        // Root has no shares of its own: -1, which sshare prints blank.
        out.add(Line.builder(root, 0)
                .rawShares(-1)
                .normShares(multifactor ? 0 : BLANK)
                .rawUsage(total)
                .effectiveUsage(multifactor ? 1 : 0)
                .levelFs(multifactor ? BLANK : 0)
                .tresRunMins(walk.runMins(root, 0))
                .build());
        walk.children(root, total, 1);
        if (multifactor) {
            // A user's FairShare is its rank in the tree (Fair Tree, Slurm 22.05's default),
            // ranked among the associations the last pass knew; the others have 0.
            Map<String, Double> ranks = FairTree.factors(computed(out, walk.pending));
            out.replaceAll(l -> l.user().isEmpty()
                    ? l
                    : l.withFairShare(
                            walk.pending.contains(l)
                                    ? 0.0
                                    : ranks.getOrDefault(FairTree.key(l.account(), l.user()), 0.0)));
        }
        return out;
    }

    /** {@code lines} without the pending ones and whatever lies under a pending account. */
    private static List<Line> computed(List<Line> lines, Set<Line> pending) {
        List<Line> out = new ArrayList<>();
        int skipBelow = Integer.MAX_VALUE;
        for (Line l : lines) {
            if (l.depth() > skipBelow) {
                continue;
            }
            skipBelow = Integer.MAX_VALUE;
            if (pending.contains(l)) {
                skipBelow = l.depth();
                continue;
            }
            out.add(l);
        }
        return out;
    }

    private static final class Walk {
        final AccountingPolicy policy;
        final long lastPass;
        /** The lines of the associations learned after the last pass. */
        final Set<Line> pending = new HashSet<>();

        final FairShare fair;
        final boolean multifactor;
        final List<Line> out;
        final Map<String, Map<String, Long>> runMinutes;
        double total;

        Walk(
                AccountingPolicy policy,
                FairShare fair,
                boolean multifactor,
                List<Line> out,
                Map<String, Map<String, Long>> runMinutes,
                long lastPass) {
            this.runMinutes = runMinutes;
            this.lastPass = lastPass;
            this.policy = policy;
            this.fair = fair;
            this.multifactor = multifactor;
            this.out = out;
        }

        List<Association> users(String account) {
            return policy.associations().stream()
                    .filter(a -> a.isUser()
                            && a.account().equals(account)
                            && a.partition().isEmpty())
                    .sorted(Comparator.comparing(Association::user))
                    .toList();
        }

        List<Association> subAccounts(String account) {
            return policy.associations().stream()
                    .filter(a -> !a.isUser()
                            && a.partition().isEmpty()
                            && a.parent().equals(account)
                            && !a.account().equals(account))
                    .sorted(Comparator.comparing(Association::account))
                    .toList();
        }

        Map<String, Long> userRunMins(Association user) {
            Map<String, Long> m = new TreeMap<>(runMinutes.getOrDefault(key(user.account(), user.user()), Map.of()));
            if (user.account().equals(policy.defaultAccounts().get(user.user()))) {
                runMinutes.getOrDefault(key("", user.user()), Map.of()).forEach((t, n) -> m.merge(t, n, Long::sum));
            }
            return m;
        }

        Map<String, Long> runMins(Association account, int depth) {
            Map<String, Long> m = new TreeMap<>();
            if (depth > MAX_DEPTH) {
                return m;
            }
            for (Association u : users(account.account())) {
                userRunMins(u).forEach((t, n) -> m.merge(t, n, Long::sum));
            }
            for (Association a : subAccounts(account.account())) {
                runMins(a, depth + 1).forEach((t, n) -> m.merge(t, n, Long::sum));
            }
            return m;
        }

        double userUsage(Association user) {
            if (!multifactor) {
                // priority/basic keeps no usage: Slurm's sshare shows 0 (observed).
                return 0;
            }
            boolean isDefault = user.account().equals(policy.defaultAccounts().get(user.user()));
            return fair.usageOf(user.account(), user.user(), isDefault);
        }

        double usage(Association account, int depth) {
            if (depth > MAX_DEPTH) {
                return 0;
            }
            double sum = 0;
            for (Association u : users(account.account())) {
                sum += userUsage(u);
            }
            for (Association a : subAccounts(account.account())) {
                sum += usage(a, depth + 1);
            }
            return sum;
        }

        void children(Association account, double parentUsage, int depth) {
            if (depth > MAX_DEPTH) {
                return;
            }
            List<Association> users = users(account.account());
            List<Association> accounts = subAccounts(account.account());
            long siblings = 0;
            for (Association a : users) {
                siblings += a.shares();
            }
            for (Association a : accounts) {
                siblings += a.shares();
            }
            for (Association u : users) {
                double used = userUsage(u);
                out.add(line(u, depth, used, parentUsage, siblings, fair.factorOf(u.user()), userRunMins(u)));
            }
            for (Association a : accounts) {
                double used = usage(a, depth);
                out.add(line(a, depth, used, parentUsage, siblings, BLANK, runMins(a, depth)));
                children(a, used, depth + 1);
            }
        }

        Line line(
                Association a,
                int depth,
                double used,
                double parentUsage,
                long siblings,
                double factor,
                Map<String, Long> mins) {
            Line.Builder line = Line.builder(a, depth).rawUsage(used).tresRunMins(mins);
            if (!multifactor) {
                return line.build();
            }
            double norm = siblings == 0 ? 0 : a.shares() / (double) siblings;
            line.normShares(norm);
            if (policy.learnedAt(a) > lastPass) {
                // Observed (compat 227): NormShares is kept current, the rest waits for the pass.
                Line l = line.build();
                pending.add(l);
                return l;
            }
            double effective = parentUsage == 0 ? 0 : used / parentUsage;
            double level = effective == 0 ? Double.POSITIVE_INFINITY : norm / effective;
            return line.normUsage(total == 0 ? 0 : used / total)
                    .effectiveUsage(effective)
                    .fairShare(factor)
                    .levelFs(level)
                    .build();
        }
    }
}
