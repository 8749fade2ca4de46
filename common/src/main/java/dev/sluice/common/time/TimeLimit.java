package dev.sluice.common.time;

import static java.util.Objects.requireNonNull;

/**
 * Time limits in whole minutes, as Slurm keeps them for jobs ({@code --time}) and partitions
 * ({@code MaxTime}, {@code DefaultTime}).
 *
 * <p>Accepted forms (sbatch(1) {@code --time}): {@code M}, {@code M:S}, {@code H:M:S}, {@code D-H},
 * {@code D-H:M}, {@code D-H:M:S}, and {@code UNLIMITED}, {@code INFINITE} or {@code -1}
 * (case-insensitive) for no limit. Seconds round up to the next minute, as Slurm's {@code
 * time_str2mins} does ({@code 0:30} is one minute). Components need not be normalised ({@code 90}
 * minutes is fine). A value of 0 stays 0: whether zero means "no limit" is the caller's rule
 * (sbatch treats {@code --time=0} as no limit; a partition's {@code MaxTime=0} is zero).
 */
public final class TimeLimit {

    /** No limit ({@code UNLIMITED}). */
    public static final long INFINITE = Long.MAX_VALUE;

    /** No limit was given at all; the partition's default applies ({@code NOT_SET} in squeue). */
    public static final long NOT_SET = -2;

    private TimeLimit() {}

    /**
     * Parses a time limit to minutes.
     *
     * @throws IllegalArgumentException with Slurm's wording "Invalid time limit specification" when
     *     the text is empty or not one of the accepted forms
     */
    public static long parseMinutes(String text) {
        long seconds = parseSeconds(text);
        return seconds == INFINITE ? INFINITE : (seconds + 59) / 60;
    }

    /**
     * A job's {@code --time}: as {@link #parseMinutes}, and also {@code -N}, which Slurm's
     * parser reads as minus N days and takes (rounded towards zero: {@code -5} is -7199
     * minutes; the job shows {@code TimeLimit} INVALID in squeue, compat 031). Only {@code -1}
     * means no limit.
     */
    public static long parseJobMinutes(String text) {
        String s = requireNonNull(text, "text is null").strip();
        if (s.length() > 1
                && s.charAt(0) == '-'
                && !s.equals("-1")
                && s.chars().skip(1).allMatch(c -> c >= '0' && c <= '9')) {
            long seconds = -Math.multiplyExact(number(text, s.substring(1)), 86400L);
            return (seconds + 59) / 60;
        }
        return parseMinutes(text);
    }

    /** Parses the same forms to seconds, without rounding (Slurm's {@code time_str2secs}). */
    public static long parseSeconds(String text) {
        requireNonNull(text, "text is null");
        String s = text.strip();
        if (s.equals("-1") || s.equalsIgnoreCase("UNLIMITED") || s.equalsIgnoreCase("INFINITE")) {
            return INFINITE;
        }
        long days = 0;
        String clock = s;
        int dash = s.indexOf('-');
        boolean hasDays = dash >= 0;
        if (hasDays) {
            days = number(text, s.substring(0, dash));
            clock = s.substring(dash + 1);
        }
        String[] f = clock.split(":", -1);
        long[] v = new long[f.length];
        for (int i = 0; i < f.length; i++) {
            v[i] = number(text, f[i]);
        }
        long secs;
        if (hasDays) {
            // days-hours[:minutes[:seconds]]
            if (f.length > 3) {
                throw invalid(text);
            }
            secs = v[0] * 3600 + (f.length > 1 ? v[1] * 60 : 0) + (f.length > 2 ? v[2] : 0);
            secs = Math.addExact(Math.multiplyExact(days, 86400), secs);
        } else if (f.length == 3) {
            secs = v[0] * 3600 + v[1] * 60 + v[2];
        } else if (f.length <= 2) {
            // minutes[:seconds]
            secs = v[0] * 60 + (f.length == 2 ? v[1] : 0);
        } else {
            throw invalid(text);
        }
        return secs;
    }

    private static long number(String original, String field) {
        if (field.isEmpty() || field.length() > 9) {
            throw invalid(original);
        }
        for (int i = 0; i < field.length(); i++) {
            if (field.charAt(i) < '0' || field.charAt(i) > '9') {
                throw invalid(original);
            }
        }
        return Long.parseLong(field);
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("Invalid time limit specification: \"" + text + "\"");
    }

    /**
     * A limit as {@code scontrol show job} ({@code TimeLimit=}) and {@code scontrol show partition}
     * ({@code MaxTime=}) print it, Slurm's {@code mins2time_str}: {@code 00:30:00}, {@code
     * 01:00:00}, {@code 1-00:00:00}, {@code UNLIMITED}.
     */
    public static String format(long minutes) {
        if (minutes == INFINITE) {
            return "UNLIMITED";
        }
        if (minutes == NOT_SET) {
            return "NONE";
        }
        if (minutes < 0) {
            return "INVALID";
        }
        long days = minutes / 1440;
        String hms = String.format("%02d:%02d:00", (minutes / 60) % 24, minutes % 60);
        return days > 0 ? days + "-" + hms : hms;
    }

    /**
     * A limit as {@code squeue %l} (TIME_LIMIT) prints it: {@code 30:00}, {@code 1:00:00}, {@code
     * 1-00:00:00}, {@code UNLIMITED}, {@code NOT_SET}.
     */
    public static String formatSqueue(long minutes) {
        if (minutes == INFINITE) {
            return "UNLIMITED";
        }
        if (minutes == NOT_SET) {
            return "NOT_SET";
        }
        if (minutes > Integer.MAX_VALUE) {
            // A negative limit as Slurm stores it (uint32): squeue cannot print it.
            return "INVALID";
        }
        return Elapsed.format(minutes * 60);
    }

    /** A partition limit as {@code sinfo %l} (TIMELIMIT) prints it: {@code infinite}, {@code 1:00:00}. */
    public static String formatSinfo(long minutes) {
        if (minutes == INFINITE) {
            return "infinite";
        }
        if (minutes == NOT_SET) {
            return "n/a";
        }
        return Elapsed.formatUnchecked(minutes * 60);
    }
}
