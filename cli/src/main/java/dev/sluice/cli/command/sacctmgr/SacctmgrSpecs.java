package dev.sluice.cli.command.sacctmgr;

import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.AssociationLimits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The words after {@code sacctmgr COMMAND ENTITY}: bare names, {@code Key=Value} pairs (keys in
 * any case), and the filler words {@code where} and {@code set}. Pure.
 */
final class SacctmgrSpecs {
    final List<String> names = new ArrayList<>();
    final Map<String, String> values = new LinkedHashMap<>();

    /**
     * What sacctmgr lowercases before it sends it (slurm_addto_char_list, strip_quotes with
     * make_lower): names of accounts, users, clusters and QOS, and descriptions and
     * organizations. The accounting daemon keeps what it is given, as slurmdbd does, so names
     * that came through the REST API keep their case.
     */
    private static final Set<String> LOWERED =
            Set.of("accounts", "parent", "defaultaccount", "users", "clusters", "description", "organization");

    /** @throws IllegalArgumentException for a key not in {@code allowed} (sacctmgr's text) */
    static SacctmgrSpecs parse(List<String> words, List<String> allowed) {
        SacctmgrSpecs s = new SacctmgrSpecs();
        for (String w : words) {
            String lower = w.toLowerCase(Locale.ROOT);
            if (lower.equals("where") || lower.equals("set")) {
                continue;
            }
            int eq = w.indexOf('=');
            if (eq < 0) {
                s.names.addAll(lower(split(w)));
                continue;
            }
            String key = canonical(lower.substring(0, eq));
            if (!allowed.contains(key)) {
                throw new UnknownOption(w);
            }
            String value = w.substring(eq + 1);
            if (key.equals("name")) {
                s.names.addAll(lower(split(value)));
            } else {
                s.values.put(key, LOWERED.contains(key) ? value.toLowerCase(Locale.ROOT) : value);
            }
        }
        return s;
    }

    /** A key the command does not take; sacctmgr's text for it, which QOS commands print on stdout. */
    static final class UnknownOption extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UnknownOption(String word) {
            super(" Unknown option: " + word + "\n Use keyword 'where' to modify condition");
        }
    }

    /** Plural and short spellings sacctmgr takes for the same key. */
    private static String canonical(String key) {
        return switch (key) {
            case "names", "user", "users" -> key.startsWith("user") ? "users" : "name";
            case "account", "accounts", "acct" -> "accounts";
            case "cluster", "clusters" -> "clusters";
            case "share", "shares", "fairshare" -> "fairshare";
            case "maxsubmit", "maxsubmitjobs" -> "maxsubmitjobs";
            case "grpsubmit", "grpsubmitjobs" -> "grpsubmitjobs";
            case "defaultaccount", "defaccount" -> "defaultaccount";
            case "defaultqos", "defqos" -> "defaultqos";
            case "description", "descr" -> "description";
            case "organization", "org" -> "organization";
            case "maxjobspu", "maxjobsperuser" -> "maxjobsperuser";
            case "maxsubmitpu", "maxsubmitjobspu", "maxsubmitjobsperuser" -> "maxsubmitjobsperuser";
            case "partition", "partitions" -> "partitions";
            case "wckey", "wckeys" -> "wckeys";
            case "defaultwckey", "defwckey" -> "defaultwckey";
            default -> key;
        };
    }

    static List<String> split(String list) {
        List<String> out = new ArrayList<>();
        for (String s : list.split(",")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    /** Names as sacctmgr sends them: in lower case. */
    static List<String> lower(List<String> names) {
        return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    }

    List<String> list(String key) {
        String v = values.get(key);
        return v == null ? List.of() : split(v);
    }

    String get(String key) {
        return values.getOrDefault(key, "");
    }

    static final List<String> LIMIT_KEYS = List.of(
            "fairshare",
            "grpjobs",
            "grpsubmitjobs",
            "grptres",
            "maxjobs",
            "maxsubmitjobs",
            "maxtres",
            "maxtrespernode",
            "maxwall",
            "qos",
            "defaultqos");

    /** The association limits given, and their lines for sacctmgr's "Settings" block. */
    AssociationLimits limits(List<String> settingLines) {
        AssociationLimits.Builder b = AssociationLimits.newBuilder();
        for (String key : LIMIT_KEYS) {
            String v = values.get(key);
            if (v == null) {
                continue;
            }
            String title;
            switch (key) {
                case "fairshare" -> {
                    b.setShares(count(v, "Fairshare"));
                    title = "Fairshare";
                }
                case "grpjobs" -> {
                    b.setGrpJobs(count(v, "GrpJobs"));
                    title = "GrpJobs";
                }
                case "grpsubmitjobs" -> {
                    b.setGrpSubmitJobs(count(v, "GrpSubmitJobs"));
                    title = "GrpSubmitJobs";
                }
                case "grptres" -> {
                    b.setGrpTres(v);
                    v = SacctmgrQos.settingsTresAsGiven(v);
                    title = "GrpTRES";
                }
                case "maxjobs" -> {
                    b.setMaxJobs(count(v, "MaxJobs"));
                    title = "MaxJobs";
                }
                case "maxsubmitjobs" -> {
                    b.setMaxSubmitJobs(count(v, "MaxSubmitJobs"));
                    title = "MaxSubmitJobs";
                }
                case "maxtres" -> {
                    b.setMaxTres(v);
                    v = SacctmgrQos.settingsTresAsGiven(v);
                    title = "MaxTRES";
                }
                case "maxtrespernode" -> {
                    b.setMaxTresPerNode(v);
                    v = SacctmgrQos.settingsTresAsGiven(v);
                    title = "MaxTRESPerNode";
                }
                case "maxwall" -> {
                    long minutes = TimeLimit.parseMinutes(v);
                    if (minutes < 0 || minutes > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException(" Bad MaxWall time format: " + v);
                    }
                    b.setMaxWallMinutes((int) minutes);
                    v = AssocValues.wall((int) minutes);
                    title = "MaxWall";
                }
                case "qos" -> {
                    b.setQos(v);
                    v = AssocValues.qosList(v);
                    title = "QOS";
                }
                default -> {
                    b.setDefaultQos(v);
                    title = "DefQOS";
                }
            }
            // A title longer than the column runs into the "=" (compat 251, 252); a TRES list shows
            // plain megabytes with their unit, as for a QOS (compat 266: mem=1000 is mem=1000M).
            settingLines.add(String.format(title.length() > 13 ? "  %s= %s" : "  %-13s = %s", title, v));
        }
        return b.build();
    }

    static int count(String v, String what) {
        try {
            int n = Integer.parseInt(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(" Bad " + what + " value: " + v);
        }
    }
}
