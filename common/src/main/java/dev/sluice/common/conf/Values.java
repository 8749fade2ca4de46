package dev.sluice.common.conf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Value checks and conversions with Slurm's rules, each failure a located {@link ConfigException}.
 * Numbers: decimal, non-negative, within the type's range; {@code UNLIMITED} or {@code INFINITE}
 * mean "no limit" (returned as {@link #INFINITE}). Booleans: yes/no, true/false, up/down, 1/0.
 */
final class Values {

    static final long INFINITE = Long.MAX_VALUE;

    private Values() {}

    static void check(ConfEntry e, SlurmConfKeys.Type type) throws ConfigException {
        switch (type) {
            case UINT16 -> unsigned(e, 0xFFFFL);
            case UINT32 -> unsigned(e, 0xFFFFFFFFL);
            case UINT64 -> unsigned(e, Long.MAX_VALUE);
            case BOOLEAN -> bool(e);
            case STRING, ARRAY -> {}
        }
    }

    static long unsigned(ConfEntry e, long max) throws ConfigException {
        String v = e.value().strip();
        if (v.equalsIgnoreCase("UNLIMITED") || v.equalsIgnoreCase("INFINITE")) {
            return INFINITE;
        }
        if (v.startsWith("-")) {
            throw e.error(e.key() + " value (" + v + ") is less than zero");
        }
        if (v.isEmpty() || v.length() > 19 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw e.error(e.key() + " value \"" + v + "\" is not a valid number");
        }
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException ex) {
            n = Long.MAX_VALUE;
        }
        if (n > max) {
            throw e.error(e.key() + " value (" + v + ") is greater than " + max);
        }
        return n;
    }

    static boolean bool(ConfEntry e) throws ConfigException {
        return switch (e.value().strip().toLowerCase(Locale.ROOT)) {
            case "yes", "true", "up", "1" -> true;
            case "no", "false", "down", "0" -> false;
            default -> throw e.error("\"" + e.value() + "\" is not a valid option for \"" + e.key() + "\"");
        };
    }

    /** Splits a comma list, dropping empty items; {@code ALL} (any case) alone means "no list". */
    static List<String> list(String value) {
        List<String> out = new ArrayList<>();
        for (String s : value.split(",")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        if (out.size() == 1 && out.getFirst().equalsIgnoreCase("ALL")) {
            return List.of();
        }
        return out;
    }
}
