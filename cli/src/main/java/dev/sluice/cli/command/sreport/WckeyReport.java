package dev.sluice.cli.command.sreport;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.protocol.v1.ClusterUsage;
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
                ConditionWord cw = ConditionWord.of(w);
                if (cw.bare() && TimeFormat.matches("all_clusters", cw.key(), 1)) {
                    all = true;
                } else if (cw.bare() && TimeFormat.matches("withdeleted", cw.key(), 5)) {
                    // Deleted wckeys are always reported.
                } else if (cw.bare() || TimeFormat.matches("WCKeys", cw.key(), 3)) {
                    wckeys.addAll(CommandSupport.commaList(cw.value()));
                } else if (TimeFormat.matches("Clusters", cw.key(), 3)) {
                    clusters.addAll(CommandSupport.commaList(cw.value()));
                } else if (TimeFormat.matches("End", cw.key(), 1)) {
                    end = ConditionWord.pastTime(cw.value(), now, err);
                } else if (TimeFormat.matches("Format", cw.key(), 1)) {
                    format.addAll(CommandSupport.commaList(cw.value()));
                } else if (TimeFormat.matches("Start", cw.key(), 1)) {
                    start = ConditionWord.pastTime(cw.value(), now, err);
                } else if (TimeFormat.matches("User", cw.key(), 1)) {
                    CommandSupport.commaList(cw.value()).forEach(u -> users.add(u.toLowerCase(Locale.ROOT)));
                } else {
                    err.println(" Unknown condition: " + w);
                    bad = true;
                }
            }
            return new Conditions(start, end, clusters, all, wckeys, users, format, bad);
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
        Optional<SreportCommand.Usage> found =
                SreportCommand.usage(inv, o, c.start(), c.end(), now, c.allClusters(), c.clusters(), err);
        if (found.isEmpty()) {
            return 1;
        }
        ReportContext ctx = found.get().ctx();
        List<ClusterUsage> usage = found.get().clusters();
        boolean tresGiven = ctx.tresGiven();
        String format = !c.format().isEmpty()
                ? String.join(",", c.format())
                : byUser
                        ? (tresGiven ? WckeyReports.USER_BY_WCKEY_TRES_FORMAT : WckeyReports.USER_BY_WCKEY_FORMAT)
                        : (tresGiven ? WckeyReports.WCKEY_BY_USER_TRES_FORMAT : WckeyReports.WCKEY_BY_USER_FORMAT);
        List<String> unknown = new ArrayList<>();
        List<ReportField.Chosen> cols = SreportCommand.columns(format, false, o.time, unknown, err);
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
