package dev.sluice.cli.command.sreport;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;

/**
 * The period a report covers, as slurmdb_report_set_start_end_time sets it: whole hours, a
 * given time rounded to the nearest hour (from half past, with seconds from 30 counting as the
 * next minute); without {@code start=} yesterday 00:00, without {@code end=} today 00:00; at
 * least one hour. An {@code end=} in the future means now. Pure.
 */
record ReportWindow(long start, long end) {
    static ReportWindow of(Instant start, Instant end, ZonedDateTime now) {
        long e;
        if (end == null) {
            e = now.truncatedTo(ChronoUnit.DAYS).toEpochSecond();
        } else {
            Instant capped = end.isAfter(now.toInstant()) ? now.toInstant() : end;
            e = round(capped.atZone(now.getZone()));
        }
        long s = start == null
                ? now.truncatedTo(ChronoUnit.DAYS).minusDays(1).toEpochSecond()
                : round(start.atZone(now.getZone()));
        if (e - s < 3600) {
            e = s + 3600;
        }
        return new ReportWindow(s, e);
    }

    private static long round(ZonedDateTime t) {
        int minute = t.getMinute() + (t.getSecond() >= 30 ? 1 : 0);
        ZonedDateTime hour = t.truncatedTo(ChronoUnit.HOURS);
        return (minute >= 30 ? hour.plusHours(1) : hour).toEpochSecond();
    }

    long seconds() {
        return end - start;
    }
}
