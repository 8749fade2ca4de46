package dev.sluice.dbd.store;

import java.util.List;

/**
 * Name filters of the listings. slurmdbd's tables compare names under MySQL's default
 * case-insensitive collation, so {@code sacctmgr show account restcase} (sacctmgr sends names
 * in lower case) finds the account {@code RestCase} that the REST API added; names are stored as
 * given, so the match is made here rather than by lowercasing what is kept.
 */
final class Names {
    private Names() {}

    /** Whether {@code name} is asked for: every name when none is given. */
    static boolean wanted(List<String> asked, String name) {
        return asked.isEmpty() || asked.stream().anyMatch(n -> n.equalsIgnoreCase(name));
    }
}
