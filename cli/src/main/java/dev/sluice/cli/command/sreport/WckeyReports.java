package dev.sluice.cli.command.sreport;

import dev.sluice.protocol.v1.ClusterUsage;
import dev.sluice.protocol.v1.WckeyUsage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code sreport cluster WCKeyUtilizationByUser} and {@code cluster UserUtilizationByWckey},
 * laid out as Slurm 22.05's cluster_reports.c: the usage of each user's wckey that has some in
 * the period, by wckey (a line per wckey, its users' usage summed, then one per user) or by user
 * (most CPU time first, then by name). Clusters without a rolled-up hour in the period are left
 * out. Pure: the usage in, the text out.
 */
final class WckeyReports {
    private WckeyReports() {}

    static final String WCKEY_BY_USER_FORMAT = "Cluster,WCKey,Login,Proper,Used";
    static final String WCKEY_BY_USER_TRES_FORMAT = "Cluster,WCKey,Login,Proper,TresName,Used";
    static final String USER_BY_WCKEY_FORMAT = "Cluster,Login,Proper,WCkey,Used";
    static final String USER_BY_WCKEY_TRES_FORMAT = "Cluster,Login,Proper,WCkey,TresName,Used";

    /** Which wckeys and users a report covers; empty sets take all. */
    record Filter(Set<String> wckeys, Set<String> users) {
        Filter {
            wckeys = Set.copyOf(wckeys);
            users = Set.copyOf(users);
        }

        boolean takes(WckeyUsage u) {
            return (wckeys.isEmpty() || wckeys.contains(u.getWckey()))
                    && (users.isEmpty() || users.contains(u.getUser()));
        }
    }

    /**
     * One line: a wckey (user null: its users' usage summed) or a user's wckey, with its
     * TRES-seconds and its cluster's reported TRES-seconds by TRES.
     */
    record Line(String cluster, String wckey, String user, Map<String, Long> used, Map<String, Long> total) {}

    /** WCKeyUtilizationByUser's lines: per cluster by name, per wckey by name, its users by name. */
    static List<Line> byWckey(List<ClusterUsage> clusters, Filter filter) {
        List<Line> out = new ArrayList<>();
        for (ClusterUsage c : sortedByName(clusters)) {
            if (!c.getHasUsage()) {
                continue;
            }
            Map<String, Long> total = total(c);
            Map<String, Map<String, Map<String, Long>>> byWckey = new java.util.TreeMap<>();
            for (WckeyUsage u : c.getWckeysList()) {
                if (filter.takes(u)) {
                    byWckey.computeIfAbsent(u.getWckey(), k -> new java.util.TreeMap<>())
                            .computeIfAbsent(u.getUser(), k -> new HashMap<>())
                            .merge(u.getTres(), u.getAllocSecs(), Long::sum);
                }
            }
            byWckey.forEach((wckey, users) -> {
                Map<String, Long> sum = new HashMap<>();
                users.values().forEach(m -> m.forEach((t, v) -> sum.merge(t, v, Long::sum)));
                out.add(new Line(c.getCluster(), wckey, null, sum, total));
                users.forEach((user, used) -> out.add(new Line(c.getCluster(), wckey, user, used, total)));
            });
        }
        return out;
    }

    /**
     * UserUtilizationByWckey's lines: per cluster, one per user's wckey, the most {@code sortTres}
     * time first, then by user name (a user's wckeys keep their order by name).
     */
    static List<Line> byUser(List<ClusterUsage> clusters, Filter filter, String sortTres) {
        List<Line> out = new ArrayList<>();
        for (ClusterUsage c : clusters) {
            if (!c.getHasUsage()) {
                continue;
            }
            Map<String, Long> total = total(c);
            Map<List<String>, Map<String, Long>> pairs = new LinkedHashMap<>();
            c.getWckeysList().stream()
                    .filter(filter::takes)
                    .sorted(Comparator.comparing(WckeyUsage::getWckey).thenComparing(WckeyUsage::getUser))
                    .forEach(u -> pairs.computeIfAbsent(List.of(u.getWckey(), u.getUser()), k -> new HashMap<>())
                            .merge(u.getTres(), u.getAllocSecs(), Long::sum));
            List<Line> mine = new ArrayList<>();
            pairs.forEach((k, used) -> mine.add(new Line(c.getCluster(), k.get(0), k.get(1), used, total)));
            mine.sort(Comparator.comparingLong((Line l) -> -l.used().getOrDefault(sortTres, 0L))
                    .thenComparing(Line::user));
            out.addAll(mine);
        }
        return out;
    }

    /**
     * The report's text. The usage columns are sized to the first line's largest value (the
     * wckey or user that used most, as sreport peeks at it); {@code Energy} prints blank in the
     * by-wckey report, zero in the by-user one.
     */
    static String render(
            String title, ReportContext ctx, List<Line> lines, List<ReportField.Chosen> cols, boolean byUser) {
        StringBuilder out = new StringBuilder();
        ctx.banner(title, true, out);
        long max = 0;
        if (!lines.isEmpty()) {
            for (String t : ctx.tres()) {
                max = Math.max(max, lines.get(0).used().getOrDefault(t, 0L));
            }
        }
        ClusterReports.fitUsed(ctx, cols, max);
        ctx.columns(ClusterReports.columns(cols), out);
        ReportPrinter p = ctx.printer();
        ctx.lines(lines, cols, out, (l, t, field, col, last) -> {
            switch (field) {
                case CLUSTER -> p.text(col, l.cluster(), last, out);
                case WCKEY -> p.text(col, l.wckey(), last, out);
                case LOGIN -> p.text(col, l.user(), last, out);
                case PROPER ->
                    p.text(col, l.user() == null ? null : ctx.properName().apply(l.user()), last, out);
                case USED -> p.time(col, l.used().getOrDefault(t, 0L), l.total().getOrDefault(t, 0L), last, out);
                case ENERGY -> {
                    if (byUser) {
                        p.time(col, 0, 0, last, out);
                    } else {
                        p.text(col, null, last, out);
                    }
                }
                case TRES_NAME -> p.text(col, t, last, out);
                default -> p.text(col, null, last, out);
            }
        });
        return out.toString();
    }

    private static Map<String, Long> total(ClusterUsage c) {
        Map<String, Long> total = new HashMap<>();
        c.getTresList().forEach(t -> total.put(t.getTres(), ClusterReports.reported(t)));
        return total;
    }

    private static List<ClusterUsage> sortedByName(List<ClusterUsage> clusters) {
        List<ClusterUsage> sorted = new ArrayList<>(clusters);
        sorted.sort(Comparator.comparing(ClusterUsage::getCluster));
        return sorted;
    }
}
