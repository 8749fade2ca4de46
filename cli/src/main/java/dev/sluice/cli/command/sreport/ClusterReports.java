package dev.sluice.cli.command.sreport;

import dev.sluice.protocol.v1.AssocUsage;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.ClusterTresUsage;
import dev.sluice.protocol.v1.ClusterUsage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sreport cluster Utilization} and {@code cluster AccountUtilizationByUser}, laid out as
 * Slurm 22.05's cluster_reports.c does. Pure: the usage in, the text out.
 */
final class ClusterReports {
    private ClusterReports() {}

    static final String UTILIZATION_FORMAT = "Cl,al,d,planned,i,res,rep";
    static final String UTILIZATION_TRES_FORMAT = "Cl,TresName,al,d,planned,i,res,rep";
    static final String ACCOUNT_BY_USER_FORMAT = "Cluster,Ac,Login,Proper,Used,Energy";
    static final String ACCOUNT_BY_USER_TRES_FORMAT = "Cluster,Ac,Login,Proper,TresName,Used";

    static String utilization(ReportContext ctx, List<ClusterUsage> clusters, List<ReportField.Chosen> cols) {
        StringBuilder out = new StringBuilder();
        ctx.banner("Cluster Utilization", false, out);
        long alloc = 0, down = 0, idle = 0, plan = 0, over = 0, pdown = 0, reported = 0;
        for (ClusterUsage c : clusters) {
            for (String t : ctx.tres()) {
                Optional<ClusterTresUsage> u = find(c, t);
                if (u.isEmpty() || !c.getHasUsage()) {
                    continue;
                }
                alloc = Math.max(alloc, u.get().getAllocSecs());
                down = Math.max(down, u.get().getDownSecs());
                idle = Math.max(idle, u.get().getIdleSecs());
                plan = Math.max(plan, u.get().getPlanSecs());
                over = Math.max(over, u.get().getOverSecs());
                pdown = Math.max(pdown, u.get().getPdownSecs());
                reported = Math.max(reported, reported(u.get()));
            }
        }
        for (ReportField.Chosen col : cols) {
            switch (col.field()) {
                case ALLOCATED, ENERGY -> ctx.printer().fitUsage(col.column(), alloc);
                case DOWN -> ctx.printer().fitUsage(col.column(), down);
                case IDLE -> ctx.printer().fitUsage(col.column(), idle);
                case PLANNED -> ctx.printer().fitUsage(col.column(), plan);
                case OVER -> ctx.printer().fitUsage(col.column(), over);
                case PLANNED_DOWN -> ctx.printer().fitUsage(col.column(), pdown);
                case REPORTED -> ctx.printer().fitUsage(col.column(), reported);
                default -> {}
            }
        }
        ctx.columns(columns(cols), out);
        for (ClusterUsage c : clusters) {
            if (!c.getHasUsage()) {
                continue;
            }
            for (String t : ctx.tres()) {
                Optional<ClusterTresUsage> found = find(c, t);
                if (found.isEmpty()) {
                    continue;
                }
                ClusterTresUsage u = found.get();
                long total = reported(u);
                long possible = ctx.window().seconds() * u.getCount();
                ReportPrinter p = ctx.printer();
                for (int i = 0; i < cols.size(); i++) {
                    ReportPrinter.Column col = cols.get(i).column();
                    boolean last = i == cols.size() - 1;
                    switch (cols.get(i).field()) {
                        case CLUSTER -> p.text(col, c.getCluster(), last, out);
                        case TRES_COUNT -> p.number(col, u.getCount(), last, out);
                        case ALLOCATED -> p.time(col, u.getAllocSecs(), total, last, out);
                        case DOWN -> p.time(col, u.getDownSecs(), total, last, out);
                        case IDLE -> p.time(col, u.getIdleSecs(), total, last, out);
                        case PLANNED -> p.time(col, u.getPlanSecs(), total, last, out);
                        case OVER -> p.time(col, u.getOverSecs(), total, last, out);
                        case PLANNED_DOWN -> p.time(col, u.getPdownSecs(), total, last, out);
                        case REPORTED -> p.time(col, total, possible, last, out);
                        case TRES_NAME -> p.text(col, t, last, out);
                        case ENERGY, USED -> p.time(col, 0, 0, last, out);
                        default -> p.text(col, null, last, out);
                    }
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    /**
     * One line per association under the account tree: each account (its users' usage summed
     * below it) followed by its users, then by its sub-accounts, names in order.
     */
    static String accountByUser(
            ReportContext ctx,
            List<ClusterUsage> clusters,
            List<ReportField.Chosen> cols,
            Set<String> users,
            Set<String> accounts) {
        StringBuilder out = new StringBuilder();
        ctx.banner("Cluster/Account/User Utilization", true, out);
        List<Line> lines = new ArrayList<>();
        long max = 0;
        for (ClusterUsage c : clusters) {
            if (!c.getHasUsage()) {
                continue;
            }
            List<Line> mine = tree(c, ctx.tres(), users, accounts);
            for (Line l : mine) {
                for (long v : l.used.values()) {
                    max = Math.max(max, v);
                }
            }
            lines.addAll(mine);
        }
        fitUsed(ctx, cols, max);
        ctx.columns(columns(cols), out);
        ReportPrinter p = ctx.printer();
        ctx.lines(lines, cols, out, (l, t, field, col, last) -> {
            switch (field) {
                case CLUSTER -> p.text(col, l.cluster, last, out);
                case ACCOUNT -> p.text(col, l.account, last, out);
                case LOGIN -> p.text(col, l.user.isEmpty() ? null : l.user, last, out);
                case PROPER ->
                    p.text(col, l.user.isEmpty() ? null : ctx.properName().apply(l.user), last, out);
                case USED -> p.time(col, l.used.getOrDefault(t, 0L), l.total.getOrDefault(t, 0L), last, out);
                case ENERGY -> p.time(col, 0, 0, last, out);
                case TRES_NAME -> p.text(col, t, last, out);
                default -> p.text(col, null, last, out);
            }
        });
        return out.toString();
    }

    private record Line(String cluster, String account, String user, Map<String, Long> used, Map<String, Long> total) {}

    private static List<Line> tree(ClusterUsage c, List<String> tres, Set<String> users, Set<String> accounts) {
        Map<String, List<AssociationEntry>> children = new HashMap<>();
        for (AssociationEntry a : c.getAccountsList()) {
            String parent = a.getUser().isEmpty() ? a.getParentAccount() : a.getAccount();
            children.computeIfAbsent(parent, k -> new ArrayList<>()).add(a);
        }
        // Users first, then sub-accounts, each by name (slurmdb's hierarchical sort).
        Comparator<AssociationEntry> order = Comparator.comparing(
                        (AssociationEntry a) -> a.getUser().isEmpty())
                .thenComparing(a -> a.getUser().isEmpty() ? a.getAccount() : a.getUser());
        children.values().forEach(l -> l.sort(order));
        Map<String, Long> total = new HashMap<>();
        for (String t : tres) {
            c.getTresList().stream().filter(u -> u.getTres().equals(t)).forEach(u -> total.put(t, reported(u)));
        }
        List<Line> out = new ArrayList<>();
        walk(c, "", children, users, accounts, accounts.isEmpty(), total, out);
        return out;
    }

    private static void walk(
            ClusterUsage c,
            String parent,
            Map<String, List<AssociationEntry>> children,
            Set<String> users,
            Set<String> accounts,
            boolean inside,
            Map<String, Long> total,
            List<Line> out) {
        for (AssociationEntry a : children.getOrDefault(parent, List.of())) {
            if (a.getUser().isEmpty()) {
                if (a.getAccount().equals(parent)) {
                    continue;
                }
                boolean show = inside || accounts.contains(a.getAccount());
                if (show) {
                    out.add(new Line(
                            c.getCluster(), a.getAccount(), "", below(c, a.getAccount(), children, users), total));
                }
                walk(c, a.getAccount(), children, users, accounts, show, total, out);
            } else if (inside && (users.isEmpty() || users.contains(a.getUser()))) {
                out.add(new Line(
                        c.getCluster(), a.getAccount(), a.getUser(), usage(c, a.getAccount(), a.getUser()), total));
            }
        }
    }

    private static Map<String, Long> usage(ClusterUsage c, String account, String user) {
        Map<String, Long> m = new HashMap<>();
        for (AssocUsage u : c.getAssocsList()) {
            if (u.getAccount().equals(account) && u.getUser().equals(user)) {
                m.merge(u.getTres(), u.getAllocSecs(), Long::sum);
            }
        }
        return m;
    }

    /** The usage of every user under an account, sub-accounts included. */
    private static Map<String, Long> below(
            ClusterUsage c, String account, Map<String, List<AssociationEntry>> children, Set<String> users) {
        Map<String, Long> m = new HashMap<>();
        for (AssociationEntry a : children.getOrDefault(account, List.of())) {
            Map<String, Long> part;
            if (a.getUser().isEmpty()) {
                if (a.getAccount().equals(account)) {
                    continue;
                }
                part = below(c, a.getAccount(), children, users);
            } else if (users.isEmpty() || users.contains(a.getUser())) {
                part = usage(c, a.getAccount(), a.getUser());
            } else {
                continue;
            }
            part.forEach((k, v) -> m.merge(k, v, Long::sum));
        }
        return m;
    }

    static long reported(ClusterTresUsage u) {
        return u.getAllocSecs() + u.getDownSecs() + u.getPdownSecs() + u.getIdleSecs() + u.getPlanSecs();
    }

    static Optional<ClusterTresUsage> find(ClusterUsage c, String tres) {
        return c.getTresList().stream().filter(u -> u.getTres().equals(tres)).findFirst();
    }

    /** Sizes the {@code Used} columns to the largest usage shown, {@code Energy} to none. */
    static void fitUsed(ReportContext ctx, List<ReportField.Chosen> cols, long max) {
        for (ReportField.Chosen col : cols) {
            if (col.field() == ReportField.USED) {
                ctx.printer().fitUsage(col.column(), max);
            } else if (col.field() == ReportField.ENERGY) {
                ctx.printer().fitUsage(col.column(), 0);
            }
        }
    }

    static List<ReportPrinter.Column> columns(List<ReportField.Chosen> cols) {
        return cols.stream().map(ReportField.Chosen::column).toList();
    }
}
