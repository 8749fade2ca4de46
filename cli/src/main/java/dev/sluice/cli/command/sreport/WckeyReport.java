package dev.sluice.cli.command.sreport;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.command.sacct.SacctTimes;
import dev.sluice.protocol.v1.ClusterUsage;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.UsageQuery;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sreport cluster WCKeyUtilizationByUser|UserUtilizationByWckey [conditions]}: their
 * conditions (cluster_reports.c _set_wckey_cond), the usage they read from sluice-dbd, and the
 * table ({@link WckeyReports}).
 */
final class WckeyReport {
    private WckeyReport() {}

    /**
     * The conditions: a bare word or {@code WCKeys=} names wckeys, {@code User=} users (only
     * {@code user} and its prefixes: {@code Users=} is unknown, as in sreport). A bad time
     * leaves the bound unset; an unknown condition is told and the report still printed.
     */
    record Conditions(
            Instant start,
            Instant end,
            List<String> clusters,
            boolean allClusters,
            Set<String> wckeys,
            Set<String> users,
            List<String> format,
            boolean bad) {

        static Conditions parse(List<String> words, ZonedDateTime now, PrintStream err) {
            Instant start = null;
            Instant end = null;
            List<String> clusters = new ArrayList<>();
            Set<String> wckeys = new LinkedHashSet<>();
            Set<String> users = new LinkedHashSet<>();
            List<String> format = new ArrayList<>();
            boolean all = false;
            boolean bad = false;
            for (String w : words) {
                int eq = w.indexOf('=');
                String key = eq < 0 ? w : w.substring(0, eq);
                String value = eq < 0 ? w : w.substring(eq + 1);
                if (eq < 0 && TimeFormat.matches("all_clusters", key, 1)) {
                    all = true;
                } else if (eq < 0 && TimeFormat.matches("withdeleted", key, 5)) {
                    // Deleted wckeys are always reported.
                } else if (eq < 0 || TimeFormat.matches("WCKeys", key, 3)) {
                    wckeys.addAll(CommandSupport.commaList(value));
                } else if (TimeFormat.matches("Clusters", key, 3)) {
                    clusters.addAll(CommandSupport.commaList(value));
                } else if (TimeFormat.matches("End", key, 1)) {
                    end = time(value, now, err);
                } else if (TimeFormat.matches("Format", key, 1)) {
                    format.addAll(CommandSupport.commaList(value));
                } else if (TimeFormat.matches("Start", key, 1)) {
                    start = time(value, now, err);
                } else if (TimeFormat.matches("User", key, 1)) {
                    CommandSupport.commaList(value).forEach(u -> users.add(u.toLowerCase(Locale.ROOT)));
                } else {
                    err.println(" Unknown condition: " + w);
                    bad = true;
                }
            }
            return new Conditions(start, end, clusters, all, wckeys, users, format, bad);
        }

        private static Instant time(String value, ZonedDateTime now, PrintStream err) {
            try {
                return SacctTimes.parsePast(value, now);
            } catch (IllegalArgumentException e) {
                err.println(TimeSpecError.message(value));
                return null;
            }
        }
    }

    static int run(
            Invocation inv,
            SreportCommand.Options o,
            boolean byUser,
            List<String> words,
            PrintStream out,
            PrintStream err) {
        ZonedDateTime now = ZonedDateTime.now(inv.clock());
        Conditions c = Conditions.parse(words, now, err);
        Optional<SreportCommand.Connection> conn = SreportCommand.connect(inv, err);
        if (conn.isEmpty()) {
            return 1;
        }
        ReportWindow window = ReportWindow.of(c.start(), c.end(), now);
        UsageQuery.Builder q = UsageQuery.newBuilder().setStart(window.start()).setEnd(window.end());
        if (!o.allClusters && !c.allClusters()) {
            List<String> clusters = new ArrayList<>(o.clusters);
            clusters.addAll(c.clusters());
            q.addAllClusters(
                    clusters.isEmpty() ? List.of(conn.get().access().conf().clusterName()) : clusters);
        }
        List<ClusterUsage> usage;
        try {
            usage = conn.get()
                    .client()
                    .call(DbdRequest.newBuilder().setQueryUsage(q))
                    .getUsage()
                    .getClustersList();
        } catch (AccountingClient.AccountingException e) {
            err.println("sreport: error: " + e.getMessage());
            return 1;
        }
        boolean tresGiven = o.tres != null;
        List<String> tres = tresGiven ? SreportCommand.expand(o.tres, usage) : List.of("cpu");
        ReportContext ctx = new ReportContext(
                window,
                now.getZone(),
                o.time,
                new ReportPrinter(o.mode, o.time),
                o.header,
                tres,
                tresGiven,
                user -> inv.users().properName(user).orElse(null));
        String format = !c.format().isEmpty()
                ? String.join(",", c.format())
                : byUser
                        ? (tresGiven ? WckeyReports.USER_BY_WCKEY_TRES_FORMAT : WckeyReports.USER_BY_WCKEY_FORMAT)
                        : (tresGiven ? WckeyReports.WCKEY_BY_USER_TRES_FORMAT : WckeyReports.WCKEY_BY_USER_FORMAT);
        List<String> unknown = new ArrayList<>();
        List<ReportField.Chosen> cols = ReportField.choose(CommandSupport.commaList(format), false, o.time, unknown);
        for (String u : unknown) {
            err.println(" Unknown field '" + u + "'");
        }
        WckeyReports.Filter filter = new WckeyReports.Filter(c.wckeys(), c.users());
        out.print(
                byUser
                        ? WckeyReports.render(
                                "Cluster/User/WCKey Utilization",
                                ctx,
                                // sreport sorts users by their CPU time whatever -T says.
                                WckeyReports.byUser(usage, filter, "cpu"),
                                cols,
                                true)
                        : WckeyReports.render(
                                "Cluster/WCKey/User Utilization",
                                ctx,
                                WckeyReports.byWckey(usage, filter),
                                cols,
                                false));
        return unknown.isEmpty() && !c.bad() ? 0 : 1;
    }
}
