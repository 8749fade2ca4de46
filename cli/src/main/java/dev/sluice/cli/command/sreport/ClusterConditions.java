package dev.sluice.cli.command.sreport;

import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.sacct.SacctTimes;
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
            int eq = w.indexOf('=');
            String key = eq < 0 ? w : w.substring(0, eq);
            String value = eq < 0 ? w : w.substring(eq + 1);
            if (eq < 0 && TimeFormat.matches("all_clusters", key, 1)) {
                c.allClusters = true;
            } else if (eq < 0 && userReport && TimeFormat.matches("group", key, 1)) {
                c.group = true;
            } else if (eq < 0 && kind == SreportCommand.Kind.ACCOUNT_BY_USER && TimeFormat.matches("Tree", key, 4)) {
                // The tree layout of account names is not drawn; the order is the same.
            } else if (clusterOnly && (eq < 0 || TimeFormat.matches("Clusters", key, 1))) {
                c.clusters.addAll(CommandSupport.commaList(value));
            } else if (!clusterOnly && (eq < 0 || TimeFormat.matches("Users", key, 1))) {
                c.users.addAll(CommandSupport.commaList(value));
            } else if (!clusterOnly && (TimeFormat.matches("Accounts", key, 2) || TimeFormat.matches("Acct", key, 4))) {
                c.accounts.addAll(CommandSupport.commaList(value));
            } else if (TimeFormat.matches("Clusters", key, 1)) {
                c.clusters.addAll(CommandSupport.commaList(value));
            } else if (TimeFormat.matches("End", key, 1)) {
                c.end = time(value, now, err);
                if (c.end == null) {
                    return null;
                }
            } else if (TimeFormat.matches("Format", key, 1)) {
                c.format.addAll(CommandSupport.commaList(value));
            } else if (TimeFormat.matches("Start", key, 1)) {
                c.start = time(value, now, err);
                if (c.start == null) {
                    return null;
                }
            } else if (userReport && TimeFormat.matches("TopCount", key, 1)) {
                try {
                    c.topCount = Integer.parseUnsignedInt(value);
                } catch (NumberFormatException e) {
                    err.println(" Bad TopCount value: " + value);
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

    private static Instant time(String value, ZonedDateTime now, PrintStream err) {
        try {
            return SacctTimes.parsePast(value, now);
        } catch (IllegalArgumentException e) {
            err.println("Invalid time specification (pos=0): " + value);
            return null;
        }
    }
}
