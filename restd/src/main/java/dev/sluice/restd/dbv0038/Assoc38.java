package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.protocol.v1.UserEntry;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Accounts, users and associations in dbv0.0.38's shapes (compat 152): unset names and limits as
 * {@code null}, associations in the tree's depth-first order (slurmdbd's lft), a QOS list
 * inherited from the nearest association that sets one, as slurmdbd fills it in.
 */
final class Assoc38 {
    private Assoc38() {}

    /** Everything one listing needs: the cluster's associations and its users' defaults. */
    record Tree(List<AssociationEntry> associations, Map<String, String> defaultAccounts) {
        static Tree of(List<AssociationEntry> associations, List<UserEntry> users) {
            return new Tree(
                    associations.stream()
                            .sorted(Comparator.comparing(AssociationEntry::getCluster)
                                    .thenComparingInt(AssociationEntry::getLft))
                            .toList(),
                    users.stream()
                            .collect(Collectors.toMap(UserEntry::getName, UserEntry::getDefaultAccount, (a, b) -> a)));
        }
    }

    static ArrayNode accounts(List<AccountEntry> accounts, Tree tree) {
        ArrayNode out = DbEnvelope38.F.arrayNode();
        for (AccountEntry a : sorted(accounts, AccountEntry::getName)) {
            ObjectNode o = out.addObject();
            // The account's own association first, then its users' (slurmdbd lists them so).
            ArrayNode assocs = o.putArray("associations");
            tree.associations().stream()
                    .filter(e -> e.getAccount().equals(a.getName()))
                    .sorted(Comparator.comparing(
                                    (AssociationEntry e) -> !e.getUser().isEmpty())
                            .thenComparing(AssociationEntry::getUser)
                            .thenComparing(AssociationEntry::getPartition))
                    .forEach(e -> assocs.add(shortForm(e)));
            o.putArray("coordinators");
            o.put("description", a.getDescription());
            o.putArray("flags");
            o.put("name", a.getName());
            o.put("organization", a.getOrganization());
        }
        return out;
    }

    static ArrayNode users(List<UserEntry> users, Tree tree) {
        ArrayNode out = DbEnvelope38.F.arrayNode();
        for (UserEntry u : sorted(users, UserEntry::getName)) {
            ObjectNode o = out.addObject();
            o.put("administrator_level", u.getAdminLevel().isEmpty() ? "None" : u.getAdminLevel());
            ArrayNode assocs = o.putArray("associations");
            tree.associations().stream()
                    .filter(e -> e.getUser().equals(u.getName()))
                    .forEach(e -> assocs.add(shortForm(e)));
            o.putArray("coordinators");
            // A user added without association has no default account yet: null, as in 22.05.
            ObjectNode def = o.putObject("default");
            nullable(def, "account", u.getDefaultAccount());
            def.put("wckey", "");
            o.putArray("flags");
            o.put("name", u.getName());
        }
        return out;
    }

    static ArrayNode associations(List<AssociationEntry> chosen, Tree tree, List<TresEntry> tres) {
        ArrayNode out = DbEnvelope38.F.arrayNode();
        for (AssociationEntry e : tree.associations()) {
            if (chosen.stream()
                    .anyMatch(c -> c.getId() == e.getId() && c.getCluster().equals(e.getCluster()))) {
                out.add(association(e, tree, tres));
            }
        }
        return out;
    }

    private static ObjectNode association(AssociationEntry e, Tree tree, List<TresEntry> tres) {
        AssociationLimits l = e.getLimits();
        ObjectNode o = DbEnvelope38.F.objectNode();
        o.put("account", e.getAccount());
        o.put("cluster", e.getCluster());
        ObjectNode def = o.putObject("default");
        if (l.hasDefaultQos() && !l.getDefaultQos().isEmpty()) {
            def.put("qos", l.getDefaultQos());
        } else {
            def.putNull("qos");
        }
        boolean isDefault = !e.getUser().isEmpty()
                && e.getAccount().equals(tree.defaultAccounts().get(e.getUser()));
        ArrayNode flags = o.putArray("flags");
        if (isDefault) {
            flags.add("DEFAULT");
        }
        o.put("is_default", isDefault ? 1 : 0);
        o.set("max", max(l, inheritedMax(e, tree), tres));
        o.putObject("min").putNull("priority_threshold");
        // An account's parent; a user's association and the root name none here.
        nullable(o, "parent_account", e.getUser().isEmpty() ? e.getParentAccount() : "");
        nullable(o, "partition", e.getPartition());
        o.putNull("priority");
        ArrayNode qos = o.putArray("qos");
        inheritedQos(e, tree).ifPresent(text -> {
            for (String q : text.split(",")) {
                if (!q.isBlank()) {
                    qos.add(q.strip());
                }
            }
        });
        o.put("shares_raw", l.hasShares() ? l.getShares() : 1);
        o.putNull("usage");
        nullable(o, "user", e.getUser());
        return o;
    }

    /** The association's own QOS list, else its parent's (a user's parent is its account's). */
    private static Optional<String> inheritedQos(AssociationEntry e, Tree tree) {
        AssociationEntry at = e;
        for (int depth = 0; at != null && depth < 64; depth++) {
            if (at.getLimits().hasQos()) {
                return Optional.of(at.getLimits().getQos());
            }
            at = parent(at, tree);
        }
        return Optional.empty();
    }

    /**
     * The Max limits (MaxJobs, MaxSubmitJobs, MaxWall, MaxTRES) in force: each the association's
     * own, else the nearest ancestor's. slurmdbd writes a parent's into every child that sets
     * none, when the child is added and when the parent changes (compat 152: a MaxWall set on
     * an account after its user was added shows on the user's association); Grp limits stay
     * the association's own.
     */
    private static AssociationLimits inheritedMax(AssociationEntry e, Tree tree) {
        AssociationLimits.Builder b = AssociationLimits.newBuilder();
        AssociationEntry at = e;
        for (int depth = 0; at != null && depth < 64; depth++) {
            AssociationLimits l = at.getLimits();
            if (!b.hasMaxJobs() && l.hasMaxJobs()) {
                b.setMaxJobs(l.getMaxJobs());
            }
            if (!b.hasMaxSubmitJobs() && l.hasMaxSubmitJobs()) {
                b.setMaxSubmitJobs(l.getMaxSubmitJobs());
            }
            if (!b.hasMaxWallMinutes() && l.hasMaxWallMinutes()) {
                b.setMaxWallMinutes(l.getMaxWallMinutes());
            }
            if (!b.hasMaxTres() && l.hasMaxTres()) {
                b.setMaxTres(l.getMaxTres());
            }
            at = parent(at, tree);
        }
        return b.build();
    }

    private static AssociationEntry parent(AssociationEntry e, Tree tree) {
        String account = e.getUser().isEmpty() ? e.getParentAccount() : e.getAccount();
        if (account.isEmpty()) {
            return null;
        }
        return tree.associations().stream()
                .filter(p -> p.getCluster().equals(e.getCluster())
                        && p.getAccount().equals(account)
                        && p.getUser().isEmpty()
                        && p.getPartition().isEmpty())
                .findFirst()
                .orElse(null);
    }

    /**
     * The limits, each null (a TRES list empty) when unset: MaxWall is {@code jobs.per.wall_clock},
     * GrpTRES {@code tres.total}, MaxTRES {@code tres.per.job} (as 22.05 places them); those
     * sluice-dbd does not keep (accrue, TRES-minutes, per node) are always unset.
     */
    private static ObjectNode max(AssociationLimits l, AssociationLimits inherited, List<TresEntry> known) {
        ObjectNode max = DbEnvelope38.F.objectNode();
        ObjectNode jobs = max.putObject("jobs");
        jobs.putNull("accruing");
        number(jobs, "active", inherited.hasMaxJobs(), inherited.getMaxJobs());
        ObjectNode per = jobs.putObject("per");
        per.putNull("accruing");
        number(per, "count", l.hasGrpJobs(), l.getGrpJobs());
        number(per, "submitted", l.hasGrpSubmitJobs(), l.getGrpSubmitJobs());
        number(per, "wall_clock", inherited.hasMaxWallMinutes(), inherited.getMaxWallMinutes());
        number(jobs, "total", inherited.hasMaxSubmitJobs(), inherited.getMaxSubmitJobs());
        max.putObject("per").putObject("account").putNull("wall_clock");
        ObjectNode tres = max.putObject("tres");
        ObjectNode group = tres.putObject("group");
        group.putArray("active");
        group.putArray("minutes");
        ObjectNode minutes = tres.putObject("minutes");
        minutes.putObject("per").putArray("job");
        minutes.putArray("total");
        ObjectNode tresPer = tres.putObject("per");
        tresPer.set("job", Tres38.list(inherited.hasMaxTres() ? inherited.getMaxTres() : "", known));
        tresPer.putArray("node");
        tres.set("total", Tres38.list(l.hasGrpTres() ? l.getGrpTres() : "", known));
        return max;
    }

    private static void number(ObjectNode o, String key, boolean set, long value) {
        if (set) {
            o.put(key, value);
        } else {
            o.putNull(key);
        }
    }

    /** {@code assoc_short}: which association, by its names (none given: null). */
    static ObjectNode shortForm(AssociationEntry e) {
        ObjectNode o = DbEnvelope38.F.objectNode();
        o.put("account", e.getAccount());
        o.put("cluster", e.getCluster());
        nullable(o, "partition", e.getPartition());
        nullable(o, "user", e.getUser());
        return o;
    }

    static void nullable(ObjectNode o, String key, String value) {
        if (value.isEmpty()) {
            o.putNull(key);
        } else {
            o.put(key, value);
        }
    }

    private static <T> List<T> sorted(List<T> list, Function<T, String> name) {
        return list.stream().sorted(Comparator.comparing(name)).toList();
    }
}
