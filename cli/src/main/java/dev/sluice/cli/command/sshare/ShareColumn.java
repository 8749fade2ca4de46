package dev.sluice.cli.command.sshare;

import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.ShareInfo;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * sshare's fields, their titles and default widths (negative: left-justified), as Slurm 22.05
 * prints them (read off the real command with every field asked for).
 */
enum ShareColumn {
    ACCOUNT("Account", -20),
    CLUSTER("Cluster", 10),
    EFFECTVUSAGE("EffectvUsage", 13),
    FAIRSHARE("FairShare", 10),
    GRPTRESMINS("GrpTRESMins", 30),
    GRPTRESRAW("GrpTRESRaw", 30),
    ID("ID", 6),
    LEVELFS("LevelFS", 10),
    NORMSHARES("NormShares", 11),
    NORMUSAGE("NormUsage", 11),
    PARTITION("Partition", 12),
    RAWSHARES("RawShares", 10),
    RAWUSAGE("RawUsage", 11),
    TRESRUNMINS("TRESRunMins", 30),
    USER("User", 10);

    static final List<ShareColumn> DEFAULT =
            List.of(ACCOUNT, USER, RAWSHARES, NORMSHARES, RAWUSAGE, EFFECTVUSAGE, FAIRSHARE);
    static final List<ShareColumn> LONG = List.of(
            ACCOUNT,
            USER,
            RAWSHARES,
            NORMSHARES,
            RAWUSAGE,
            NORMUSAGE,
            EFFECTVUSAGE,
            FAIRSHARE,
            LEVELFS,
            GRPTRESMINS,
            TRESRUNMINS);

    final String title;
    final int width;

    ShareColumn(String title, int width) {
        this.title = title;
        this.width = width;
    }

    /** The field a {@code --format} name asks for: any leading part of a name, any case (first in this order). */
    static Optional<ShareColumn> named(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (ShareColumn c : values()) {
            if (!n.isEmpty() && c.title.toLowerCase(Locale.ROOT).startsWith(n)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * This field of one line.
     *
     * @param indent the account's depth in the listing (spaces before its name)
     * @param tres the cluster's TRES, in order, for the TRES lists
     */
    String value(ShareInfo s, int indent, String cluster, List<String> tres) {
        return switch (this) {
            case ACCOUNT -> " ".repeat(Math.max(0, indent)) + s.getAccount();
            case CLUSTER -> cluster;
            case EFFECTVUSAGE -> number(s.getEffectiveUsage());
            case FAIRSHARE -> number(s.getFairshare());
            case GRPTRESMINS, PARTITION -> "";
            case ID -> s.getId() == 0 ? "" : Integer.toUnsignedString(s.getId());
            case GRPTRESRAW ->
                tresList(tres, name -> name.equals("cpu") || name.equals("billing") ? s.getRawUsage() / 60 : 0);
            case LEVELFS -> number(s.getLevelFs());
            case NORMSHARES -> number(s.getNormShares());
            case NORMUSAGE -> number(s.getNormUsage());
            case RAWSHARES -> s.getParentShares() ? "" : Integer.toString(s.getRawShares());
            case RAWUSAGE -> Long.toString(s.getRawUsage());
            case TRESRUNMINS -> tresList(tres, name -> s.getTresRunMinsOrDefault(name, 0));
            case USER -> s.getUser();
        };
    }

    /** NaN prints nothing, infinity {@code inf}, anything else with six decimals. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%f", v);
    }

    private static String tresList(List<String> tres, java.util.function.ToLongFunction<String> value) {
        java.util.Map<String, Long> counts = new java.util.LinkedHashMap<>();
        for (String t : tres) {
            counts.put(t, value.applyAsLong(t));
        }
        return Tres.of(counts).formatCounts();
    }
}
