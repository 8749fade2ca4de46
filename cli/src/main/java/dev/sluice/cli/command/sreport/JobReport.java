package dev.sluice.cli.command.sreport;

import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.format.FormatItem;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.WckeyEntry;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code sreport job SizesByAccount [conditions]}: its conditions (job_reports.c _set_cond),
 * the jobs and associations it needs from sluice-dbd, and its table; the grouping itself is
 * {@link JobSizes}.
 */
final class JobReport {
    private JobReport() {}

    /**
     * The report's conditions. A time it cannot read is told and left unset; an unknown
     * condition is told and the report still printed, then {@code bad} makes it exit 1.
     */
    record Conditions(Instant start, Instant end, Scope scope, List<String> format, Layout layout, boolean bad) {

        /** Whose jobs: {@code Clusters=}/{@code all_clusters}, {@code Accounts=}, {@code Users=}, {@code Partitions=}. */
        record Scope(
                List<String> clusters,
                boolean allClusters,
                Set<String> accounts,
                List<String> users,
                List<String> partitions,
                List<String> wckeys) {}

        /**
         * How the table is cut: {@code Grouping=} sizes (or {@code individual}), {@code FlatView},
         * {@code AcctAsParent}, {@code PrintJobCount}.
         */
        record Layout(
                List<Integer> grouping, boolean individual, boolean flatView, boolean acctAsParent, boolean jobCount) {}

        static Conditions parse(List<String> words, ZonedDateTime now, PrintStream err) {
            Instant start = null;
            Instant end = null;
            List<String> clusters = new ArrayList<>();
            Set<String> accounts = new java.util.LinkedHashSet<>();
            List<String> users = new ArrayList<>();
            List<String> partitions = new ArrayList<>();
            List<String> wckeys = new ArrayList<>();
            List<String> format = new ArrayList<>();
            List<Integer> grouping = new ArrayList<>();
            boolean all = false;
            boolean individual = false;
            boolean flat = false;
            boolean parent = false;
            boolean count = false;
            boolean bad = false;
            for (String w : words) {
                ConditionWord cw = ConditionWord.of(w);
                if (cw.bare() && TimeFormat.matches("all_clusters", cw.key(), 1)) {
                    all = true;
                } else if (cw.bare() && TimeFormat.matches("AcctAsParent", cw.key(), 2)) {
                    parent = true;
                } else if (cw.bare() && TimeFormat.matches("PrintJobCount", cw.key(), 2)) {
                    count = true;
                } else if (cw.bare() && TimeFormat.matches("FlatView", cw.key(), 2)) {
                    flat = true;
                } else if (cw.bare() || TimeFormat.matches("Clusters", cw.key(), 1)) {
                    clusters.addAll(CommandSupport.commaList(cw.value()));
                } else if (TimeFormat.matches("Accounts", cw.key(), 2) || TimeFormat.matches("Acct", cw.key(), 4)) {
                    accounts.addAll(CommandSupport.commaList(cw.value().toLowerCase(Locale.ROOT)));
                } else if (TimeFormat.matches("End", cw.key(), 1) || TimeFormat.matches("Start", cw.key(), 1)) {
                    Instant t = ConditionWord.pastTime(cw.value(), now, err);
                    if (TimeFormat.matches("End", cw.key(), 1)) {
                        end = t;
                    } else {
                        start = t;
                    }
                } else if (TimeFormat.matches("Format", cw.key(), 2)) {
                    format.addAll(CommandSupport.commaList(cw.value()));
                } else if (TimeFormat.matches("grouping", cw.key(), 2)) {
                    if (TimeFormat.firstAgree(cw.value(), "individual", 1)) {
                        individual = true;
                    } else {
                        for (String g : CommandSupport.commaList(cw.value())) {
                            grouping.add(atoi(g));
                        }
                    }
                } else if (TimeFormat.matches("Partitions", cw.key(), 2)) {
                    partitions.addAll(CommandSupport.commaList(cw.value()));
                } else if (TimeFormat.matches("Users", cw.key(), 1)) {
                    users.addAll(CommandSupport.commaList(cw.value()));
                } else if (TimeFormat.matches("Wckeys", cw.key(), 2)) {
                    wckeys.addAll(CommandSupport.commaList(cw.value()));
                } else {
                    // Gid=, Jobs=, Nodes=, Associations=: not taken by Sluice yet.
                    err.println(" Unknown condition: " + w);
                    err.println("Use keyword set to modify value");
                    bad = true;
                }
            }
            if (!individual && grouping.isEmpty()) {
                grouping.addAll(List.of(50, 250, 500, 1000));
            }
            return new Conditions(
                    start,
                    end,
                    new Scope(clusters, all, accounts, users, partitions, wckeys),
                    format,
                    new Layout(grouping, individual, flat, parent, count),
                    bad);
        }

        /** C's atoi: leading digits, else 0 (a {@code %width} after them is ignored). */
        private static int atoi(String s) {
            int i = 0;
            while (i < s.length() && i < 9 && Character.isDigit(s.charAt(i))) {
                i++;
            }
            return i == 0 ? 0 : Integer.parseInt(s.substring(0, i));
        }
    }

    /** One table column: its kind, title and width. */
    private record Col(String kind, ReportPrinter.Column column) {}

    /**
     * @param byWckey {@code SizesByWckey}: jobs grouped by the cluster's wckeys (those of
     *     {@code Wckeys=}) rather than by account
     */
    static int run(
            ReportContext ctx,
            Conditions c,
            boolean byWckey,
            AccountingClient client,
            List<String> clusters,
            long now,
            StringBuilder out,
            PrintStream err)
            throws AccountingClient.AccountingException {
        if (ctx.tres().size() > 1) {
            err.println(" Job report only supports a single --tres type.");
            err.println(" Generate a separate report for each TRES type.");
            return 1;
        }
        String tres = ctx.tres().isEmpty() ? "cpu" : ctx.tres().get(0);
        String unit = tres.equals("cpu") ? "CPUs" : "TRES";
        JobQuery.Builder q = JobQuery.newBuilder()
                .addAllClusters(clusters)
                .addAllUsers(c.scope().users())
                .addAllPartitions(c.scope().partitions())
                .setWindowStart(ctx.window().start())
                .setWindowEnd(ctx.window().end())
                .setAllocationsOnly(true);
        if (c.layout().flatView() && !byWckey) {
            // Otherwise the accounts pick groups, and sub-accounts' jobs count in them.
            q.addAllAccounts(c.scope().accounts());
        }
        List<AccountedJob> jobs =
                client.call(DbdRequest.newBuilder().setQueryJobs(q)).getJobs().getJobsList();
        if (!c.scope().wckeys().isEmpty()) {
            // As stored: Wckeys=NAME does not take a job that took NAME by default (*NAME).
            jobs = jobs.stream()
                    .filter(j -> c.scope().wckeys().contains(j.getWckey()))
                    .toList();
        }
        List<AssociationEntry> assocs = c.layout().flatView() || byWckey
                ? List.of()
                : client.call(DbdRequest.newBuilder()
                                .setListAssoc(ListAssocRequest.newBuilder()
                                        .setEntity(AssocEntity.ASSOCIATIONS)
                                        .addAllClusters(clusters)))
                        .getListed()
                        .getAssociationsList();
        List<Integer> grouping = c.layout().individual()
                ? sizesFound(jobs, tres, ctx, now)
                : c.layout().grouping();
        if (grouping.isEmpty()) {
            // Grouping=individual with no job that ran: sreport has no column to print.
            err.println(" We need a grouping list to set up the print.");
            return 1;
        }
        Conditions.Layout l = c.layout();
        JobSizes.Options o = new JobSizes.Options(
                grouping,
                l.individual(),
                l.flatView(),
                l.acctAsParent(),
                l.jobCount(),
                c.scope().accounts());
        JobSizes.Measure measure =
                new JobSizes.Measure(tres, ctx.window().start(), ctx.window().end(), now);
        Map<String, Long> totals = new LinkedHashMap<>();
        Map<String, List<JobSizes.Row>> rows = byWckey
                ? JobSizes.rowsByWckey(jobs, wckeys(client, clusters, c.scope().wckeys()), o, measure, totals)
                : JobSizes.rows(jobs, assocs, o, measure, totals);

        List<Col> cols = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String item : c.format().isEmpty() ? List.of("Cl", byWckey ? "wc" : "a") : c.format()) {
            Col col = field(item);
            if (col == null) {
                unknown.add(item.contains("%") ? item.substring(0, item.indexOf('%')) : item);
            } else {
                cols.add(col);
            }
        }
        unknown.forEach(u -> err.println(" Unknown field '" + u + "'"));
        int sizeWidth = ctx.time().withPercent() ? 20 : 13;
        for (String title : JobSizes.titles(grouping, unit, c.layout().individual())) {
            cols.add(new Col("size", new ReportPrinter.Column(title, sizeWidth)));
        }
        cols.add(new Col("total", new ReportPrinter.Column("% of cluster", 12)));

        if (ctx.header()) {
            out.append(ReportContext.RULE).append('\n');
            out.append(byWckey ? "Job Sizes by Wckey " : "Job Sizes ")
                    .append(ctx.stamp(ctx.window().start()))
                    .append(" - ")
                    .append(ctx.stamp(ctx.window().end() - 1))
                    .append(" (")
                    .append(ctx.window().seconds())
                    .append(" secs)\n");
            if (ctx.tresGiven()) {
                out.append("TRES type is ").append(tres).append('\n');
            }
            out.append(
                    c.layout().jobCount()
                            ? "Units are in number of jobs ran\n"
                            : "Time reported in " + ctx.time().words + "\n");
            out.append(ReportContext.RULE).append('\n');
            ctx.printer().header(cols.stream().map(Col::column).toList(), out);
        }
        ReportPrinter p = ctx.printer();
        rows.forEach((cluster, list) -> {
            for (JobSizes.Row r : list) {
                int size = 0;
                for (int i = 0; i < cols.size(); i++) {
                    Col col = cols.get(i);
                    boolean last = i == cols.size() - 1;
                    switch (col.kind()) {
                        case "cluster" -> p.text(col.column(), r.cluster(), last, out);
                        case "account" -> p.text(col.column(), r.account(), last, out);
                        case "size" -> {
                            long v = r.perSize()[size++];
                            if (c.layout().jobCount()) {
                                p.number(col.column(), v, last, out);
                            } else {
                                p.time(col.column(), v, r.total(), last, out);
                            }
                        }
                        case "total" ->
                            p.text(col.column(), TimeFormat.PERCENT.format(r.total(), totals.get(cluster)), last, out);
                        // Counts sreport has no value for print as 0 (print_fields_uint of nothing).
                        case "zero" -> p.number(col.column(), 0, last, out);
                        default -> p.text(col.column(), null, last, out);
                    }
                }
                out.append('\n');
            }
        });
        return unknown.isEmpty() && !c.bad() ? 0 : 1;
    }

    /** Each cluster's wckey names (not deleted ones), those of {@code names} when given. */
    private static Map<String, Set<String>> wckeys(AccountingClient client, List<String> clusters, List<String> names)
            throws AccountingClient.AccountingException {
        Map<String, Set<String>> out = new java.util.HashMap<>();
        ListWckeysRequest.Builder q =
                ListWckeysRequest.newBuilder().addAllClusters(clusters).addAllNames(names);
        for (WckeyEntry w : client.call(DbdRequest.newBuilder().setListWckeys(q))
                .getListedWckeys()
                .getWckeysList()) {
            out.computeIfAbsent(w.getCluster(), k -> new java.util.HashSet<>()).add(w.getName());
        }
        return out;
    }

    /** {@code Grouping=individual}: one column per size a job had. */
    private static List<Integer> sizesFound(List<AccountedJob> jobs, String tres, ReportContext ctx, long now) {
        Set<Integer> sizes = new TreeSet<>();
        for (AccountedJob j : jobs) {
            Long n = JobSizes.count(j, tres);
            if (n != null
                    && JobSizes.elapsed(j, ctx.window().start(), ctx.window().end(), now) > 0) {
                sizes.add((int) Math.min(n, Integer.MAX_VALUE));
            }
        }
        return new ArrayList<>(sizes);
    }

    /** job_reports.c's columns: the ones with a value here, and those it prints blank. */
    private static Col field(String item) {
        FormatItem parsed = FormatItem.parse(item);
        String name = parsed.name();
        int width = parsed.width();
        Col c;
        if (TimeFormat.matches("Account", name, 1) || TimeFormat.matches("Acct", name, 4)) {
            c = new Col("account", new ReportPrinter.Column("Account", 9));
        } else if (TimeFormat.matches("Cluster", name, 2)) {
            c = new Col("cluster", new ReportPrinter.Column("Cluster", 9));
        } else if (TimeFormat.matches("Duration", name, 1)) {
            c = new Col("blank", new ReportPrinter.Column("Duration", 12));
        } else if (TimeFormat.matches("JobCount", name, 2)) {
            c = new Col("zero", new ReportPrinter.Column("Job Count", 9));
        } else if (TimeFormat.matches("NodeCount", name, 2)) {
            c = new Col("zero", new ReportPrinter.Column("Node Count", 9));
        } else if (TimeFormat.matches("TresCount", name, 5)
                || TimeFormat.matches("CpuCount", name, 2)
                || TimeFormat.matches("count", name, 2)) {
            c = new Col("zero", new ReportPrinter.Column("TRES Count", 10));
        } else if (TimeFormat.matches("User", name, 1)) {
            c = new Col("blank", new ReportPrinter.Column("User", 9));
        } else if (TimeFormat.matches("Wckey", name, 1)) {
            // The group's name, account or wckey, as for Account.
            c = new Col("account", new ReportPrinter.Column("Wckey", 9));
        } else {
            return null;
        }
        if (width != 0) {
            c.column().width = width;
        }
        return c;
    }
}
