package dev.sluice.cli.command.sacctmgr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The words after {@code sacctmgr show ENTITY}, as its _set_cond functions read them: bare
 * names, {@code Key=Value} conditions, {@code format=} and each entity's own flags;
 * {@code where} is a filler. Keys and flags may be shortened as in Slurm. A flag another
 * entity has is a name here, as in Slurm ({@code show user tree} lists a user named "tree");
 * a bare word of {@code show assoc} is an association id. Pure.
 */
record ShowConditions(
        List<String> names,
        List<String> accounts,
        List<String> users,
        List<String> clusters,
        List<String> partitions,
        List<String> types,
        List<String> ids,
        List<String> format,
        boolean withAssoc,
        boolean tree,
        boolean onlyDefaults,
        boolean withSubAccounts) {

    /** Whose _set_cond reads the words: they differ in their flags and bare words. */
    enum Entity {
        ASSOC,
        USER,
        ACCOUNT,
        CLUSTER,
        QOS,
        TRES
    }

    /**
     * A bare word is a type for TRES ({@code show tres gres}), an association id for
     * associations, a name otherwise.
     *
     * @throws IllegalArgumentException with Slurm's {@code  Unknown condition: x} or
     *     {@code sacctmgr: error: Invalid value for AssocId (x)}
     */
    static ShowConditions parse(List<String> words, Entity entity) {
        List<String> names = new ArrayList<>();
        List<String> accounts = new ArrayList<>();
        List<String> users = new ArrayList<>();
        List<String> clusters = new ArrayList<>();
        List<String> partitions = new ArrayList<>();
        List<String> types = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<String> format = new ArrayList<>();
        boolean withAssoc = false;
        boolean tree = false;
        boolean onlyDefaults = false;
        boolean withSubAccounts = false;
        boolean assoc = entity == Entity.ASSOC;
        boolean userOrAccount = entity == Entity.USER || entity == Entity.ACCOUNT;
        for (String w : words) {
            int eq = w.indexOf('=');
            if (eq < 0) {
                if (is(w, "where", 5)) {
                    continue;
                } else if (userOrAccount && is(w, "WithAssoc", 5)) {
                    withAssoc = true;
                } else if (assoc && is(w, "Tree", 4)) {
                    tree = true;
                } else if (assoc && is(w, "OnlyDefaults", 3)) {
                    onlyDefaults = true;
                } else if (assoc && is(w, "WithSubAccounts", 5)) {
                    withSubAccounts = true;
                } else if (is(w, "WithDeleted", 5)
                        || ((assoc || userOrAccount) && (is(w, "WOPLimits", 4) || is(w, "WithRawQOS", 5)))
                        || (userOrAccount && is(w, "WithCoordinators", 5))
                        || (assoc && (is(w, "WOPInfo", 4) || is(w, "WOLimits", 3)))) {
                    // Sluice deletes for good, keeps no parent limits apart, prints QOS by
                    // name and has no coordinators: nothing changes.
                } else if (assoc) {
                    ids.addAll(assocIds(w));
                } else {
                    (entity == Entity.TRES ? types : names).addAll(SacctmgrSpecs.split(w));
                }
                continue;
            }
            // "Key+=v" and "Key-=v" name the key without their operator.
            String key = w.substring(0, eq).replaceAll("[+-]$", "");
            List<String> values = SacctmgrSpecs.split(w.substring(eq + 1));
            if (is(key, "Format", 1)) {
                format.addAll(values);
            } else if (is(key, "Names", 1) || is(key, "Users", 1)) {
                (is(key, "Users", 1) ? users : names).addAll(values);
            } else if (is(key, "Accounts", 2) || is(key, "Acct", 4)) {
                accounts.addAll(values);
            } else if (is(key, "Clusters", 1)) {
                clusters.addAll(values);
            } else if (is(key, "Partitions", 2)) {
                partitions.addAll(values);
            } else if (is(key, "Type", 2)) {
                types.addAll(values);
            } else if (is(key, "Ids", 1) || (assoc && is(key, "Associations", 2))) {
                ids.addAll(assoc ? assocIds(w.substring(eq + 1)) : values);
            } else {
                throw new IllegalArgumentException(" Unknown condition: " + w);
            }
        }
        // sacctmgr lowercases the names it looks for (not TRES names, which the daemon reads in
        // any case); the daemon matches them as given.
        boolean named = entity != Entity.TRES;
        return new ShowConditions(
                named ? SacctmgrSpecs.lower(names) : names,
                SacctmgrSpecs.lower(accounts),
                SacctmgrSpecs.lower(users),
                SacctmgrSpecs.lower(clusters),
                partitions,
                types,
                ids,
                format,
                withAssoc,
                tree,
                onlyDefaults,
                withSubAccounts);
    }

    /** Association ids, as numbers: Slurm refuses a word that is not one. */
    private static List<String> assocIds(String list) {
        List<String> ids = new ArrayList<>();
        for (String id : SacctmgrSpecs.split(list)) {
            if (!id.strip().matches("[0-9]{1,10}")) {
                throw new IllegalArgumentException("sacctmgr: error: Invalid value for AssocId (" + id + ")");
            }
            ids.add(id.strip());
        }
        return ids;
    }

    /** Slurm's xstrncasecmp(word, name, MAX(len, min)): a long enough prefix, any case. */
    static boolean is(String word, String name, int min) {
        return word.length() >= min
                && word.length() <= name.length()
                && name.toLowerCase(Locale.ROOT).startsWith(word.toLowerCase(Locale.ROOT));
    }
}
