package dev.sluice.common.time;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Timestamps as Slurm prints them with the default {@code SLURM_TIME_FORMAT=standard}: ISO-8601
 * local time without zone, {@code 2026-11-29T08:30:00} (strftime {@code %FT%T}). Slurm prints
 * {@code Unknown} for an unset time (0, or "infinite") and {@code None} for "no value"; callers
 * express those with {@code null} ({@link #UNKNOWN}) and {@link #formatOrNone}.
 */
public final class SlurmTimestamp {

    public static final String UNKNOWN = "Unknown";
    public static final String NONE = "None";

    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    private SlurmTimestamp() {}

    /** Formats {@code instant} in {@code zone}; {@code null} or the epoch print {@code Unknown}. */
    public static String format(Instant instant, ZoneId zone) {
        requireNonNull(zone, "zone is null");
        if (instant == null || instant.equals(Instant.EPOCH)) {
            return UNKNOWN;
        }
        return FORMAT.format(LocalDateTime.ofInstant(instant, zone));
    }

    /** Like {@link #format} but {@code null} prints {@code None} (e.g. a job that has no end time yet). */
    public static String formatOrNone(Instant instant, ZoneId zone) {
        return instant == null ? NONE : format(instant, zone);
    }
}
