package dev.sluice.common.conf;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Partition options whose values Slurm 22.05 interprets while reading the file, with its rules and
 * messages: {@code OverSubscribe}, the partition {@code SelectTypeParameters} and {@code
 * PreemptMode}.
 */
final class PartitionValues {

    private static final Set<String> PREEMPT =
            Set.of("off", "cancel", "gang", "requeue", "suspend", "priority", "within");

    private PartitionValues() {}

    /**
     * {@code OverSubscribe} (or {@code Shared}) in the form {@code scontrol show partition} prints:
     * {@code NO}, {@code EXCLUSIVE}, {@code YES:n} or {@code FORCE:n}; a bare YES or FORCE means 4
     * jobs per resource. A count Slurm cannot use ({@code YES:1}, {@code FORCE:x}) falls back to NO
     * with a warning, as Slurm does; any other word is an error.
     */
    static String overSubscribe(ConfEntry e, String at, List<String> warnings) throws ConfigException {
        if (e == null) {
            return "NO";
        }
        String v = e.value().strip();
        String upper = v.toUpperCase(Locale.ROOT);
        switch (upper) {
            case "NO":
                return "NO";
            case "EXCLUSIVE":
                return "EXCLUSIVE";
            case "YES":
                return "YES:4";
            case "FORCE":
                return "FORCE:4";
            default:
                break;
        }
        for (String kind : new String[] {"YES", "FORCE"}) {
            if (upper.startsWith(kind + ":")) {
                int n = leadingInt(upper.substring(kind.length() + 1));
                int min = kind.equals("YES") ? 2 : 1;
                if (n < min) {
                    warnings.add(at + "Ignoring bad OverSubscribe value: " + v);
                    return "NO";
                }
                return kind + ":" + n;
            }
        }
        throw e.error("Bad value \"" + v + "\" for OverSubscribe");
    }

    /** strtol-like: the leading digits, or 0 when there are none. */
    private static int leadingInt(String s) {
        int i = 0;
        while (i < s.length() && i < 9 && Character.isDigit(s.charAt(i))) {
            i++;
        }
        return i == 0 ? 0 : Integer.parseInt(s.substring(0, i));
    }

    /** Slurm matches these by prefix, longest first; returns the canonical name or empty. */
    static String selectTypeParameters(ConfEntry e) throws ConfigException {
        if (e == null) {
            return "";
        }
        String v = e.value().toUpperCase(Locale.ROOT);
        for (String canonical : new String[] {"CR_Core_Memory", "CR_Core", "CR_Socket_Memory", "CR_Socket"}) {
            if (v.startsWith(canonical.toUpperCase(Locale.ROOT))) {
                return canonical;
            }
        }
        throw e.error("Bad value for SelectTypeParameters: " + e.value());
    }

    static void preemptMode(ConfEntry e) throws ConfigException {
        if (e == null) {
            return;
        }
        for (String w : e.value().split(",")) {
            if (!PREEMPT.contains(w.strip().toLowerCase(Locale.ROOT))) {
                throw e.error("Bad value \"" + e.value() + "\" for PreemptMode");
            }
        }
    }
}
