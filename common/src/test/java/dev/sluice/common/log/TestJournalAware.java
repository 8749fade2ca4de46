package dev.sluice.common.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class TestJournalAware {
    private static final ZoneId UTC = ZoneId.of("UTC");

    @Test
    void levelsMapToTheSyslogPrioritiesJournaldFiltersOn() {
        assertThat(JournalAware.priority(Level.ERROR)).isEqualTo("<3>");
        assertThat(JournalAware.priority(Level.WARN)).isEqualTo("<4>");
        assertThat(JournalAware.priority(Level.INFO)).isEqualTo("<6>");
        assertThat(JournalAware.priority(Level.DEBUG)).isEqualTo("<7>");
        assertThat(JournalAware.priority(Level.TRACE)).isEqualTo("<7>");
    }

    @Test
    void linesLookLikeSlurmctldsWithTheirSourceInFront() {
        assertThat(JournalAware.prefix(event("dev.sluice.ctld.server.CtldServer", Level.INFO), false, UTC))
                .isEqualTo("[2026-12-02T03:58:34.994] CtldServer: ");
        assertThat(JournalAware.prefix(event("dev.sluice.ctld.rpc.FrameServer", Level.WARN), false, UTC))
                .isEqualTo("[2026-12-02T03:58:34.994] warning: FrameServer: ");
        assertThat(JournalAware.prefix(event("gRPC", Level.ERROR), false, UTC))
                .isEqualTo("[2026-12-02T03:58:34.994] error: gRPC: ");
        assertThat(JournalAware.prefix(event("x.Y", Level.DEBUG), false, UTC))
                .isEqualTo("[2026-12-02T03:58:34.994] debug: Y: ");
    }

    @Test
    void slurmsOwnWordsArePrintedAsSlurmctldPrintsThem() {
        assertThat(JournalAware.prefix(event("slurm.jobs", Level.INFO), false, UTC))
                .isEqualTo("[2026-12-02T03:58:34.994] ");
        assertThat(JournalAware.prefix(event("slurm", Level.ERROR), false, UTC))
                .isEqualTo("[2026-12-02T03:58:34.994] error: ");
        assertThat(JournalAware.prefix(event("slurmish.Thing", Level.INFO), false, UTC))
                .isEqualTo("[2026-12-02T03:58:34.994] Thing: ");
    }

    @Test
    void underTheJournalAPriorityReplacesTheTimestamp() {
        assertThat(JournalAware.prefix(event("a.B", Level.WARN), true, UTC)).isEqualTo("<4>warning: B: ");
        assertThat(JournalAware.prefix(event("slurm.jobs", Level.INFO), true, UTC))
                .isEqualTo("<6>");
    }

    /** The timestamp is formatted a second at a time: any instant, in any order, reads as itself. */
    @Property(tries = 300)
    void everyLineCarriesItsOwnMillisecond(
            @ForAll @LongRange(min = 0, max = 4_102_444_800_000L) long first,
            @ForAll @LongRange(min = -3_000, max = 3_000) long step,
            @ForAll("zones") String zone) {
        ZoneId id = ZoneId.of(zone);
        DateTimeFormatter expected = DateTimeFormatter.ofPattern("'['yyyy-MM-dd'T'HH:mm:ss.SSS'] '");
        for (long millis : new long[] {first, first + step, first, Math.max(0, first - step), first + 999}) {
            LoggingEvent e = event("slurm", Level.INFO);
            e.setInstant(Instant.ofEpochMilli(millis));
            assertThat(JournalAware.prefix(e, false, id))
                    .isEqualTo(expected.format(Instant.ofEpochMilli(millis).atZone(id)));
        }
    }

    @Provide
    Arbitrary<String> zones() {
        return Arbitraries.of("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe");
    }

    private static LoggingEvent event(String logger, Level level) {
        LoggingEvent e = new LoggingEvent();
        e.setLoggerName(logger);
        e.setLevel(level);
        e.setInstant(Instant.parse("2026-12-02T03:58:34.994Z"));
        return e;
    }
}
