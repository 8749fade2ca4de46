package dev.sluice.cli.command.sreport;

import dev.sluice.cli.command.CommandSupport;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The conditions of the cluster Utilization, AccountUtilizationByUser, UserUtilizationByAccount
 * and user TopUsage reports ({@code Key=Value} words after it), as sreport's _set_*_cond.
 */
final class ClusterConditions {
    Instant start;
    Instant end;
    final List<String> clusters = new ArrayList<>();
    final Set<String> users = new HashSet<>();
    final Set<String> accounts = new HashSet<>();
    final List<String> format = new ArrayList<>();
    int topCount = 10;
    boolean group;
    boolean allClusters;
    boolean bad;

    /**
     * As the report's own condition parser: {@code Utilization} takes clusters (a bare word
     * is one), the others users (a bare word is one) and accounts. Null after printing the
     * error when a time is malformed.
     */
    static ClusterConditions parse(List<String> words, SreportCommand.Kind kind, ZonedDateTime now, PrintStream err) {
        boolean userReport = kind == SreportCommand.Kind.TOP_USAGE;
        boolean clusterOnly = kind == SreportCommand.Kind.UTILIZATION;
        ClusterConditions c = new ClusterConditions();
        for (String w : words) {
            ConditionWord cw = ConditionWord.of(w);
            if (cw.bare() && TimeFormat.matches("all_clusters", cw.key(), 1)) {
                c.allClusters = true;
            } else if (cw.bare() && userReport && TimeFormat.matches("group", cw.key(), 1)) {
                c.group = true;
            } else if (cw.bare()
                    && kind == SreportCommand.Kind.ACCOUNT_BY_USER
                    && TimeFormat.matches("Tree", cw.key(), 4)) {
                // The tree layout of account names is not drawn; the order is the same.
            } else if (clusterOnly && (cw.bare() || TimeFormat.matches("Clusters", cw.key(), 1))) {
                c.clusters.addAll(CommandSupport.commaList(cw.value()));
            } else if (!clusterOnly && (cw.bare() || TimeFormat.matches("Users", cw.key(), 1))) {
                c.users.addAll(CommandSupport.commaList(cw.value()));
            } else if (!clusterOnly
                    && (TimeFormat.matches("Accounts", cw.key(), 2) || TimeFormat.matches("Acct", cw.key(), 4))) {
                c.accounts.addAll(CommandSupport.commaList(cw.value()));
            } else if (TimeFormat.matches("Clusters", cw.key(), 1)) {
                c.clusters.addAll(CommandSupport.commaList(cw.value()));
            } else if (TimeFormat.matches("End", cw.key(), 1)) {
                c.end = ConditionWord.pastTimeAtZero(cw.value(), now, err);
                if (c.end == null) {
                    return null;
                }
            } else if (TimeFormat.matches("Format", cw.key(), 1)) {
                c.format.addAll(CommandSupport.commaList(cw.value()));
            } else if (TimeFormat.matches("Start", cw.key(), 1)) {
                c.start = ConditionWord.pastTimeAtZero(cw.value(), now, err);
                if (c.start == null) {
                    return null;
                }
            } else if (userReport && TimeFormat.matches("TopCount", cw.key(), 1)) {
                try {
                    c.topCount = Integer.parseUnsignedInt(cw.value());
                } catch (NumberFormatException e) {
                    err.println(" Bad TopCount value: " + cw.value());
                    c.bad = true;
                }
            } else {
                err.println(" Unknown condition: " + w);
                err.println("Use keyword set to modify value");
                c.bad = true;
            }
        }
        return c;
    }
}
