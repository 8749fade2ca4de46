package dev.sluice.cli.command.sacct;

import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.BeginTime;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.regex.Pattern;

/** sacct's time input ({@code -S}, {@code -E}) and its duration and limit output. */
public final class SacctTimes {
    private static final Pattern HAS_YEAR = Pattern.compile(
            "^\\d{4}-\\d{2}-\\d{2}.*|.*\\d{1,2}[/.]\\d{1,2}[/.]\\d{2}.*" + "|^\\d{6}$|^now.*|^today.*|^tomorrow.*");

    private SacctTimes() {}

    /**
     * A point in time as sbatch's {@code --begin} reads it, but looking back: sacct asks about
     * the past, so an hour or a date without a year that lies ahead means the last one gone by.
     *
     * @throws IllegalArgumentException when the text is not a time
     */
    public static Instant parsePast(String text, ZonedDateTime now) {
        Instant t = BeginTime.parse(text, now);
        String lower = text.strip().toLowerCase(java.util.Locale.ROOT);
        if (!t.isAfter(now.toInstant()) || HAS_YEAR.matcher(lower).matches()) {
            return t;
        }
        ZonedDateTime z = t.atZone(now.getZone());
        boolean dateGiven = lower.matches(".*\\d{1,2}[/.]\\d{1,2}.*|^\\d{4}$");
        return (dateGiven ? z.minusYears(1) : z.minusDays(1)).toInstant();
    }

    /** Elapsed time as sacct prints it: {@code HH:MM:SS}, {@code D-HH:MM:SS} past a day. */
    static String duration(long seconds) {
        long d = seconds / 86400;
        long h = (seconds / 3600) % 24;
        long m = (seconds / 60) % 60;
        long s = seconds % 60;
        String hms = String.format("%02d:%02d:%02d", h, m, s);
        return d > 0 ? d + "-" + hms : hms;
    }

    /** A time limit in minutes: {@code 01:00:00}, {@code UNLIMITED}, {@code Partition_Limit}. */
    static String limit(int minutes) {
        if (minutes == SlurmLimits.INFINITE32) {
            return "UNLIMITED";
        }
        if (minutes == SlurmLimits.NO_VAL32 || minutes == 0) {
            return "Partition_Limit";
        }
        return duration(Integer.toUnsignedLong(minutes) * 60);
    }
}
