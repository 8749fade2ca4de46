package dev.sluice.cli.command.sreport;

import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AssociationEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code sreport job SizesByAccount}: the TRES time (CPU by default) of the jobs that ran in the
 * period, by account and job size, as slurmdb_report_job_sizes_grouped_by_account groups it.
 * Accounts come from the association tree: every account by default (so the first, root,
 * takes every job), those of {@code Accounts=}, or with {@code AcctAsParent} the children of
 * root (or of the accounts given); a job counts in the first of them it lies under.
 * {@code FlatView} groups by the job's own account instead. Accounts and clusters without a job
 * are left out. Pure.
 */
final class JobSizes {
    private JobSizes() {}

    /** The options of the report's conditions. */
    record Options(
            List<Integer> grouping,
            boolean individual,
            boolean flatView,
            boolean acctAsParent,
            boolean jobCount,
            Set<String> accounts) {}

    /**
     * How a job is measured: the TRES whose count sizes it and whose time is summed
     * ({@code cpu}), the period it is trimmed to, and now (where a running job ends).
     */
    record Measure(String tres, long windowStart, long windowEnd, long now) {}

    /** One row: an account's time (or job count) per size, and its total. */
    record Row(String cluster, String account, long[] perSize, long total) {}

    /**
     * The size columns' titles: {@code 0-49 CPUs}, ..., {@code >= 1000 CPUs}, or with
     * {@code Grouping=individual} one per size ({@code 4 CPUs}).
     */
    static List<String> titles(List<Integer> grouping, String unit, boolean individual) {
        List<String> out = new ArrayList<>();
        if (individual) {
            grouping.forEach(size -> out.add(size + " " + unit));
            return out;
        }
        int last = 0;
        for (int size : grouping) {
            out.add(last + "-" + (size - 1) + " " + unit);
            last = size;
        }
        if (last != 0) {
            out.add(">= " + last + " " + unit);
        }
        return out;
    }

    /**
     * The rows, by cluster and account name, and each cluster's total.
     *
     * @param assocs the clusters' associations in tree order (accounts before their users)
     */
    static Map<String, List<Row>> rows(
            List<AccountedJob> jobs,
            List<AssociationEntry> assocs,
            Options o,
            Measure m,
            Map<String, Long> clusterTotals) {
        Map<String, String> parentOf = new HashMap<>();
        for (AssociationEntry a : assocs) {
            if (a.getUser().isEmpty()) {
                parentOf.put(a.getCluster() + '\0' + a.getAccount(), a.getParentAccount());
            }
        }
        // Groups in association order, one per (cluster, account).
        Map<String, List<String>> groups = new LinkedHashMap<>();
        if (!o.flatView()) {
            Set<String> parents = o.accounts().isEmpty() ? Set.of("root") : o.accounts();
            for (AssociationEntry a : assocs) {
                boolean wanted = o.acctAsParent()
                        ? a.getUser().isEmpty() && parents.contains(a.getParentAccount())
                        : o.accounts().isEmpty() || o.accounts().contains(a.getAccount());
                List<String> mine = groups.computeIfAbsent(a.getCluster(), c -> new ArrayList<>());
                if (wanted && !mine.contains(a.getAccount())) {
                    mine.add(a.getAccount());
                }
            }
        }
        java.util.function.Function<AccountedJob, String> groupOf =
                j -> o.flatView() ? j.getAccount() : groupOf(j, groups, parentOf);
        return sum(jobs, groupOf, o, m, clusterTotals);
    }

    /**
     * {@code sreport job SizesByWckey}'s rows: a job counts under the wckey it ran with when that
     * is one of its cluster's wckeys, compared as stored (one taken by default is {@code *name},
     * no wckey's name); FlatView and AcctAsParent change nothing here.
     *
     * @param wckeys each cluster's wckey names (those of {@code Wckeys=}, else all)
     */
    static Map<String, List<Row>> rowsByWckey(
            List<AccountedJob> jobs,
            Map<String, Set<String>> wckeys,
            Options o,
            Measure m,
            Map<String, Long> clusterTotals) {
        java.util.function.Function<AccountedJob, String> groupOf =
                j -> wckeys.getOrDefault(j.getCluster(), Set.of()).contains(j.getWckey()) ? j.getWckey() : null;
        Options plain = new Options(o.grouping(), o.individual(), false, false, o.jobCount(), o.accounts());
        return sum(jobs, groupOf, plain, m, clusterTotals);
    }

    /** Each job that ran in the period into its group's size column; groups without one are skipped. */
    private static Map<String, List<Row>> sum(
            List<AccountedJob> jobs,
            java.util.function.Function<AccountedJob, String> groupOf,
            Options o,
            Measure m,
            Map<String, Long> clusterTotals) {
        int sizes = titles(o.grouping(), "", o.individual()).size();
        Map<String, Map<String, long[]>> sums = new LinkedHashMap<>();
        for (AccountedJob j : jobs) {
            long elapsed = elapsed(j, m.windowStart(), m.windowEnd(), m.now());
            Long count = count(j, m.tres());
            if (elapsed <= 0 || count == null) {
                continue;
            }
            String group = groupOf.apply(j);
            if (group == null) {
                continue;
            }
            int size = o.individual()
                    ? o.grouping().indexOf((int) Math.min(count, Integer.MAX_VALUE))
                    : bucket(o.grouping(), count);
            if (size < 0) {
                continue;
            }
            long[] row = sums.computeIfAbsent(j.getCluster(), c -> new LinkedHashMap<>())
                    .computeIfAbsent(group, g -> new long[sizes]);
            long value = o.jobCount() ? 1 : count * elapsed;
            row[size] += value;
            clusterTotals.merge(j.getCluster(), value, Long::sum);
        }
        Map<String, List<Row>> out = new java.util.TreeMap<>();
        sums.forEach((cluster, byAccount) -> {
            List<Row> rows = new ArrayList<>();
            byAccount.forEach((account, perSize) -> rows.add(new Row(
                    cluster, account, perSize, java.util.Arrays.stream(perSize).sum())));
            rows.sort(Comparator.comparing(Row::account));
            out.put(cluster, rows);
        });
        return out;
    }

    /** The first group the job's account is, or lies under. */
    private static String groupOf(AccountedJob j, Map<String, List<String>> groups, Map<String, String> parentOf) {
        for (String g : groups.getOrDefault(j.getCluster(), List.of())) {
            String a = j.getAccount();
            // The tree is finite; the bound guards against a cycle in bad data.
            for (int depth = 0; a != null && !a.isEmpty() && depth < 1000; depth++) {
                if (a.equals(g)) {
                    return g;
                }
                a = parentOf.get(j.getCluster() + '\0' + a);
            }
        }
        return null;
    }

    /** The job's run time inside the period, as slurmdbd trims it for a report. */
    static long elapsed(AccountedJob j, long windowStart, long windowEnd, long now) {
        if (j.getStartTime() <= 0) {
            return 0;
        }
        long start = Math.max(j.getStartTime(), windowStart);
        long end = Math.min(j.getEndTime() > 0 ? j.getEndTime() : now, windowEnd);
        return Math.max(0, end - start);
    }

    /** The job's allocated count of a TRES; null when it has none. */
    static Long count(AccountedJob j, String tres) {
        try {
            Map<String, Long> counts = Tres.parse(j.getAllocTres()).asMap();
            return counts.get(tres);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static int bucket(List<Integer> grouping, long count) {
        int i = 0;
        while (i < grouping.size() && count >= grouping.get(i)) {
            i++;
        }
        return i;
    }
}
