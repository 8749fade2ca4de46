package dev.sluice.cli.command.sreport;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** sreport's {@code -t}: how TRES-seconds are printed, with the words of its header. */
enum TimeFormat {
    SECONDS("Seconds"),
    MINUTES("Minutes"),
    HOURS("Hours"),
    PERCENT("Percentage of Total"),
    SECONDS_PERCENT("Seconds/Percentage of Total"),
    MINUTES_PERCENT("Minutes/Percentage of Total"),
    HOURS_PERCENT("Hours/Percentage of Total");

    final String words;

    TimeFormat(String words) {
        this.words = words;
    }

    /** As sreport matches {@code -t}: SecPer, MinPer, HourPer, then Seconds, Minutes, Hours, Percent. */
    static TimeFormat parse(String text) {
        if (matches("SecPer", text, 6)) {
            return SECONDS_PERCENT;
        }
        if (matches("MinPer", text, 6)) {
            return MINUTES_PERCENT;
        }
        if (matches("HourPer", text, 6)) {
            return HOURS_PERCENT;
        }
        if (matches("Seconds", text, 1)) {
            return SECONDS;
        }
        if (matches("Minutes", text, 1)) {
            return MINUTES;
        }
        if (matches("Hours", text, 1)) {
            return HOURS;
        }
        if (matches("Percent", text, 1)) {
            return PERCENT;
        }
        throw new IllegalArgumentException("unknown time format " + text);
    }

    boolean withPercent() {
        return this == SECONDS_PERCENT || this == MINUTES_PERCENT || this == HOURS_PERCENT;
    }

    /** One value against its total, as slurmdb_report_print_time writes it. */
    String format(long value, long total) {
        long t = total == 0 ? 1 : total;
        double percent = (double) value / t * 100;
        return switch (this) {
            case SECONDS -> Long.toString(value);
            case MINUTES -> round((double) value / 60, 0);
            case HOURS -> round((double) value / 3600, 0);
            case PERCENT -> round(percent, 2) + "%";
            case SECONDS_PERCENT -> value + "(" + round(percent, 2) + "%)";
            case MINUTES_PERCENT -> round((double) value / 60, 0) + "(" + round(percent, 2) + "%)";
            case HOURS_PERCENT -> round((double) value / 3600, 0) + "(" + round(percent, 2) + "%)";
        };
    }

    /** printf's {@code %.Nf}: the exact binary value rounded, ties to even. */
    static String round(double v, int places) {
        return new BigDecimal(v).setScale(places, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** Slurm's {@code xstrncasecmp(given, name, n)}: the first {@code n} characters agree. */
    static boolean firstAgree(String given, String name, int n) {
        for (int i = 0; i < n; i++) {
            char g = i < given.length() ? Character.toLowerCase(given.charAt(i)) : '\0';
            char c = i < name.length() ? Character.toLowerCase(name.charAt(i)) : '\0';
            if (g != c) {
                return false;
            }
            if (g == '\0') {
                return true;
            }
        }
        return true;
    }

    /**
     * Slurm's {@code xstrncasecmp(name, given, MAX(strlen(given), min))}: the whole name, or a
     * prefix of it at least {@code min} characters long.
     */
    static boolean matches(String name, String given, int min) {
        String n = name.toLowerCase(Locale.ROOT);
        String g = given.toLowerCase(Locale.ROOT);
        return n.equals(g) || (g.length() >= min && n.startsWith(g));
    }
}
