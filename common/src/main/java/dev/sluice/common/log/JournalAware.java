package dev.sluice.common.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The daemons' line format, slurmctld's: {@code [2026-12-02T03:58:34.994] error: text}, where
 * the word after the timestamp is the level ({@code error:}, {@code warning:}, {@code debug:};
 * none for info) and the text starts with where it comes from ({@code CtldServer: ...}), as
 * Slurm's start with a function name. Messages in Slurm's own words (logged under
 * {@link #SLURM_WORDS}, such as {@code sched: Allocate JobId=...}) are printed as slurmctld
 * prints them, without a source.
 *
 * <p>systemd sets {@code JOURNAL_STREAM} when a service's standard error is the journal: lines
 * then need no timestamp (the journal keeps its own) and begin with a syslog priority,
 * {@code <3>} for errors, {@code <4>} warnings, {@code <6>} info, {@code <7>} debug, which
 * journald reads into the entry's PRIORITY (so {@code journalctl -p warning} works).
 */
public final class JournalAware {
    /** The logger (and its children) whose messages are Slurm's words, printed as they are. */
    public static final String SLURM_WORDS = "slurm";

    private static final DateTimeFormatter TO_SECOND = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    /**
     * The timestamp up to its second, {@code [2026-12-02T03:58:34.}, as last formatted: a daemon
     * logs many lines a second (three a job at the controller), and formatting a date is most of
     * a line's cost. Shared by every logging thread; a stale one is only formatted again.
     */
    private record Second(long epochSecond, ZoneId zone, String text) {}

    private static volatile Second lastSecond;

    private JournalAware() {}

    static boolean toJournal() {
        String stream = System.getenv("JOURNAL_STREAM");
        return stream != null && !stream.isEmpty();
    }

    /** The syslog priority prefix journald understands, for a logback level. */
    static String priority(Level level) {
        if (level.isGreaterOrEqual(Level.ERROR)) {
            return "<3>";
        }
        if (level.isGreaterOrEqual(Level.WARN)) {
            return "<4>";
        }
        return level.isGreaterOrEqual(Level.INFO) ? "<6>" : "<7>";
    }

    /** slurmctld's words for levels: info has none. */
    static String levelWord(Level level) {
        if (level.isGreaterOrEqual(Level.ERROR)) {
            return "error: ";
        }
        if (level.isGreaterOrEqual(Level.WARN)) {
            return "warning: ";
        }
        if (level.isGreaterOrEqual(Level.INFO)) {
            return "";
        }
        return level.isGreaterOrEqual(Level.DEBUG) ? "debug: " : "debug2: ";
    }

    /** Everything before the message, for a line written at {@code zone}'s local time. */
    static String prefix(ILoggingEvent event, boolean journal, ZoneId zone) {
        StringBuilder b = new StringBuilder(48);
        if (journal) {
            b.append(priority(event.getLevel()));
        } else {
            long millis = event.getTimeStamp();
            long epochSecond = Math.floorDiv(millis, 1000L);
            int milli = (int) Math.floorMod(millis, 1000L);
            Second second = lastSecond;
            if (second == null
                    || second.epochSecond() != epochSecond
                    || !second.zone().equals(zone)) {
                second = new Second(
                        epochSecond,
                        zone,
                        "["
                                + TO_SECOND.format(
                                        Instant.ofEpochSecond(epochSecond).atZone(zone)) + ".");
                lastSecond = second;
            }
            b.append(second.text());
            if (milli < 100) {
                b.append(milli < 10 ? "00" : "0");
            }
            b.append(milli).append("] ");
        }
        b.append(levelWord(event.getLevel()));
        String logger = event.getLoggerName();
        if (!logger.equals(SLURM_WORDS) && !logger.startsWith(SLURM_WORDS + ".")) {
            b.append(logger, logger.lastIndexOf('.') + 1, logger.length()).append(": ");
        }
        return b.toString();
    }

    /** {@code %slurmPrefix} in {@code logback.xml}: timestamp or priority, level word, source. */
    public static final class SlurmPrefix extends ClassicConverter {
        private final boolean journal = toJournal();
        private final ZoneId zone = ZoneId.systemDefault();

        @Override
        public String convert(ILoggingEvent event) {
            return prefix(event, journal, zone);
        }
    }
}
