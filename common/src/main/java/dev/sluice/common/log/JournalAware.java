package dev.sluice.common.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.PropertyDefinerBase;

/**
 * systemd sets {@code JOURNAL_STREAM} when a service's standard error is the journal: lines then
 * need no timestamp (the journal keeps its own) and begin with a syslog priority, {@code <3>}
 * for errors, {@code <4>} warnings, {@code <6>} info, {@code <7>} debug, which journald reads
 * into the entry's PRIORITY (so {@code journalctl -p warning} works).
 */
public final class JournalAware {
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

    /**
     * {@code <define name="LOG_LEVEL_TIME" class="...$LevelAndTime"/>}: the level, after a
     * timestamp except under the journal. (Logback trims defined values, so the separating
     * space cannot be the value's own.)
     */
    public static final class LevelAndTime extends PropertyDefinerBase {
        @Override
        public String getPropertyValue() {
            return toJournal() ? "%-5level" : "%d{yyyy-MM-dd'T'HH:mm:ss.SSS} %-5level";
        }
    }

    /** {@code %journalPriority}: the priority prefix under the journal, nothing elsewhere. */
    public static final class Priority extends ClassicConverter {
        private final boolean journal = toJournal();

        @Override
        public String convert(ILoggingEvent event) {
            return journal ? priority(event.getLevel()) : "";
        }
    }
}
