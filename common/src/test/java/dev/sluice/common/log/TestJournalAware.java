package dev.sluice.common.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;

class TestJournalAware {
    @Test
    void levelsMapToTheSyslogPrioritiesJournaldFiltersOn() {
        assertThat(JournalAware.priority(Level.ERROR)).isEqualTo("<3>");
        assertThat(JournalAware.priority(Level.WARN)).isEqualTo("<4>");
        assertThat(JournalAware.priority(Level.INFO)).isEqualTo("<6>");
        assertThat(JournalAware.priority(Level.DEBUG)).isEqualTo("<7>");
        assertThat(JournalAware.priority(Level.TRACE)).isEqualTo("<7>");
    }
}
