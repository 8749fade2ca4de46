package dev.sluice.cli.command.sreport;

import dev.sluice.protocol.v1.AssocUsage;
import dev.sluice.protocol.v1.ClusterUsage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code sreport user TopUsage}: per cluster, the users (one line per user and account, or per
 * user with {@code group}) that used the most of the first TRES reported, most first, names
 * breaking ties; at most {@code TopCount} of them. Laid out as Slurm 22.05's user_reports.c.
 * Pure.
 */
final class UserReports {
    private UserReports() {}

    static final String TOP_FORMAT = "Cl,L,P,A,U,Energy";
    static final String TOP_TRES_FORMAT = "Cl,L,P,A,TresName,Used";

    private record Row(
            String cluster, String user, List<String> accounts, Map<String, Long> used, Map<String, Long> total) {}

    static final String BY_ACCOUNT_FORMAT = "Cluster,Login,Proper,Ac,Used,Energy";
    static final String BY_ACCOUNT_TRES_FORMAT = "Cluster,Login,Proper,Ac,TresName,Used";

    static String topUsage(
            ReportContext ctx,
            List<ClusterUsage> clusters,
            List<ReportField.Chosen> cols,
            Set<String> users,
            Set<String> accounts,
            boolean group,
            int topCount) {
        return byUser(
                "Top " + Integer.toUnsignedString(topCount) + " Users",
                ctx,
                clusters,
                cols,
                users,
                accounts,
                group,
                Integer.toUnsignedLong(topCount));
    }

    /** {@code cluster UserUtilizationByAccount}: every user and account pair, most used first. */
    static String userByAccount(
            ReportContext ctx,
            List<ClusterUsage> clusters,
            List<ReportField.Chosen> cols,
            Set<String> users,
            Set<String> accounts) {
        return byUser("Cluster/User/Account Utilization", ctx, clusters, cols, users, accounts, false, Long.MAX_VALUE);
    }

    private static String byUser(
            String title,
            ReportContext ctx,
            List<ClusterUsage> clusters,
            List<ReportField.Chosen> cols,
            Set<String> users,
            Set<String> accounts,
            boolean group,
            long limit) {
        StringBuilder out = new StringBuilder();
        ctx.banner(title, true, out);
        String sortTres = ctx.tres().isEmpty() ? "cpu" : ctx.tres().get(0);
        List<List<Row>> perCluster = new ArrayList<>();
        long max = 0;
        for (ClusterUsage c : clusters) {
            if (!c.getHasUsage()) {
                continue;
            }
            // Percentages are of the cluster's reported time of each TRES, as slurmdb's report.
            Map<String, Long> total = new TreeMap<>();
            c.getTresList().forEach(t -> total.put(t.getTres(), ClusterReports.reported(t)));
            Map<String, Row> byKey = new LinkedHashMap<>();
            for (AssocUsage u : c.getAssocsList()) {
                if (u.getUser().isEmpty()
                        || (!users.isEmpty() && !users.contains(u.getUser()))
                        || (!accounts.isEmpty() && !accounts.contains(u.getAccount()))) {
                    continue;
                }
                String key = group ? u.getUser() : u.getUser() + '\0' + u.getAccount();
                Row r = byKey.computeIfAbsent(
                        key, k -> new Row(c.getCluster(), u.getUser(), new ArrayList<>(), new TreeMap<>(), total));
                if (!r.accounts().contains(u.getAccount())) {
                    r.accounts().add(u.getAccount());
                }
                r.used().merge(u.getTres(), u.getAllocSecs(), Long::sum);
            }
            List<Row> rows = new ArrayList<>(byKey.values());
            rows.sort(Comparator.comparingLong((Row r) -> -r.used().getOrDefault(sortTres, 0L))
                    .thenComparing(Row::user));
            List<Row> top = rows.subList(0, (int) Math.min(rows.size(), limit));
            for (Row r : top) {
                for (String t : ctx.tres()) {
                    max = Math.max(max, r.used().getOrDefault(t, 0L));
                }
            }
            perCluster.add(top);
        }
        ClusterReports.fitUsed(ctx, cols, max);
        ctx.columns(ClusterReports.columns(cols), out);
        ReportPrinter p = ctx.printer();
        ctx.lines(perCluster.stream().flatMap(List::stream).toList(), cols, out, (r, t, field, col, last) -> {
            switch (field) {
                case CLUSTER -> p.text(col, r.cluster(), last, out);
                case LOGIN -> p.text(col, r.user(), last, out);
                case PROPER -> p.text(col, ctx.properName().apply(r.user()), last, out);
                case ACCOUNT -> p.text(col, String.join(", ", r.accounts()), last, out);
                case USED -> p.time(col, r.used().getOrDefault(t, 0L), r.total().getOrDefault(t, 0L), last, out);
                case ENERGY -> p.time(col, 0, 0, last, out);
                case TRES_NAME -> p.text(col, t, last, out);
                default -> p.text(col, null, last, out);
            }
        });
        return out.toString();
    }
}
