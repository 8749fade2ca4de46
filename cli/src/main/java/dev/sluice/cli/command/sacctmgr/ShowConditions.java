package dev.sluice.cli.command.sacctmgr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The words after {@code sacctmgr show ENTITY}, as its _set_cond functions read them: bare
 * names, {@code Key=Value} conditions, {@code format=} and the flags {@code WithAssoc} and
 * {@code Tree}; {@code where} is a filler. Keys and flags may be shortened as in Slurm. Pure.
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
        boolean tree) {

    /**
     * @param bareIsType true for TRES, where a bare word is a type ({@code show tres gres})
     * @throws IllegalArgumentException with Slurm's {@code  Unknown condition: x}
     */
    static ShowConditions parse(List<String> words, boolean bareIsType) {
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
        for (String w : words) {
            int eq = w.indexOf('=');
            if (eq < 0) {
                if (is(w, "where", 5)) {
                    continue;
                } else if (is(w, "WithAssoc", 5)) {
                    withAssoc = true;
                } else if (is(w, "Tree", 4)) {
                    tree = true;
                } else if (is(w, "WithDeleted", 5) || is(w, "WOPLimits", 4) || is(w, "WOLimits", 3)) {
                    // Sluice deletes for good and keeps no parent limits apart: nothing changes.
                } else {
                    (bareIsType ? types : names).addAll(SacctmgrSpecs.split(w));
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
            } else if (is(key, "Ids", 1)) {
                ids.addAll(values);
            } else {
                throw new IllegalArgumentException(" Unknown condition: " + w);
            }
        }
        return new ShowConditions(names, accounts, users, clusters, partitions, types, ids, format, withAssoc, tree);
    }

    /** Slurm's xstrncasecmp(word, name, MAX(len, min)): a long enough prefix, any case. */
    static boolean is(String word, String name, int min) {
        return word.length() >= min
                && word.length() <= name.length()
                && name.toLowerCase(Locale.ROOT).startsWith(word.toLowerCase(Locale.ROOT));
    }
}
