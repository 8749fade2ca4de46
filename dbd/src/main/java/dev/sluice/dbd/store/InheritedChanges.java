package dev.sluice.dbd.store;

import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The associations an account's change reaches through inheritance, as slurmdbd reports them
 * with the account's own (compat 215): a per-job or per-user limit, QOS or default QOS set on an
 * account is the value of every association below that does not set its own, so each such user
 * association is listed after the account (an account in between that does not set it either is
 * walked through, not listed). Grp limits and fairshare are the level's own and reach no one.
 * Pure.
 */
final class InheritedChanges {
    /** The columns whose value an association without its own takes from its parent account. */
    private static final Set<String> INHERITED = Set.of(
            "max_jobs", "max_submit_jobs", "max_wall_minutes", "max_tres", "max_tres_per_node", "qos", "default_qos");

    private InheritedChanges() {}

    /**
     * @param all every association of the database, for the tree
     * @param account an account's association the change was made on
     * @param columns the columns changed (column → new value, null: cleared)
     * @param out receives the user associations reached, in tree order
     */
    static void reached(
            List<AssociationEntry> all,
            AssociationEntry account,
            Map<String, Object> columns,
            Consumer<AssociationEntry> out) {
        if (!account.getUser().isEmpty() || columns.keySet().stream().noneMatch(INHERITED::contains)) {
            return;
        }
        walk(all, account.getCluster(), account.getAccount(), columns, out, 0);
    }

    private static void walk(
            List<AssociationEntry> all,
            String cluster,
            String account,
            Map<String, Object> columns,
            Consumer<AssociationEntry> out,
            int depth) {
        if (depth > 64) {
            return;
        }
        List<AssociationEntry> below = all.stream()
                .filter(a -> a.getCluster().equals(cluster))
                .filter(a -> a.getUser().isEmpty()
                        ? a.getParentAccount().equals(account)
                        : a.getAccount().equals(account))
                .sorted(Comparator.comparingInt(AssociationEntry::getLft))
                .toList();
        for (AssociationEntry a : below) {
            if (!inherits(a.getLimits(), columns)) {
                continue;
            }
            if (a.getUser().isEmpty()) {
                walk(all, cluster, a.getAccount(), columns, out, depth + 1);
            } else {
                out.accept(a);
            }
        }
    }

    /** Whether the association lacks its own value for one of the changed columns. */
    private static boolean inherits(AssociationLimits own, Map<String, Object> columns) {
        for (Map.Entry<String, Object> c : columns.entrySet()) {
            boolean unset = switch (c.getKey()) {
                case "max_jobs" -> !own.hasMaxJobs();
                case "max_submit_jobs" -> !own.hasMaxSubmitJobs();
                case "max_wall_minutes" -> !own.hasMaxWallMinutes();
                case "qos" -> own.getQos().isEmpty();
                case "default_qos" -> own.getDefaultQos().isEmpty();
                case "max_tres" -> !namesAll(own.getMaxTres(), c.getValue());
                case "max_tres_per_node" -> !namesAll(own.getMaxTresPerNode(), c.getValue());
                default -> false;
            };
            if (unset) {
                return true;
            }
        }
        return false;
    }

    /** Whether the association's own TRES limit sets every TRES the change names. */
    private static boolean namesAll(String own, Object given) {
        if (own.isBlank() || given == null) {
            return false;
        }
        Set<String> mine = names(own);
        return mine.containsAll(names(given.toString()));
    }

    private static Set<String> names(String tres) {
        Set<String> out = new java.util.HashSet<>();
        for (String item : tres.split(",")) {
            int eq = item.indexOf('=');
            String name = (eq < 0 ? item : item.substring(0, eq)).strip().toLowerCase(java.util.Locale.ROOT);
            if (!name.isEmpty()) {
                out.add(name);
            }
        }
        return out;
    }
}
