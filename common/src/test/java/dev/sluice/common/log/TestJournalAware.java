package dev.sluice.common.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.time.Instant;
import java.time.ZoneId;
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

    private static LoggingEvent event(String logger, Level level) {
        LoggingEvent e = new LoggingEvent();
        e.setLoggerName(logger);
        e.setLevel(level);
        e.setInstant(Instant.parse("2026-12-02T03:58:34.994Z"));
        return e;
    }
}
