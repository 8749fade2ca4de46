package dev.sluice.cli.command.sreport;

import dev.sluice.cli.command.sacct.SacctTimes;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;

/**
 * One condition word after the report's name: {@code key=value}, or a bare word, which is both
 * its key and its value (a flag such as {@code all_clusters}, or a name the report takes bare).
 */
record ConditionWord(String key, String value, boolean bare) {
    static ConditionWord of(String w) {
        int eq = w.indexOf('=');
        return eq < 0
                ? new ConditionWord(w, w, true)
                : new ConditionWord(w.substring(0, eq), w.substring(eq + 1), false);
    }

    /** {@code Start=}/{@code End=}: the time, or null after printing sreport's error with its position. */
    static Instant pastTime(String value, ZonedDateTime now, PrintStream err) {
        return pastTime(value, now, err, TimeSpecError.message(value));
    }

    /** As {@link #pastTime}, the error always saying position 0, as the cluster, user and reservation reports do. */
    static Instant pastTimeAtZero(String value, ZonedDateTime now, PrintStream err) {
        return pastTime(value, now, err, "Invalid time specification (pos=0): " + value);
    }

    private static Instant pastTime(String value, ZonedDateTime now, PrintStream err, String error) {
        try {
            return SacctTimes.parsePast(value, now);
        } catch (IllegalArgumentException e) {
            err.println(error);
            return null;
        }
    }
}
