package dev.sluice.packaging.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading one sample out of the controller's metrics text (Prometheus exposition format 0.0.4). */
class TestMetricValue {
    private static final String TEXT = "# HELP sluice_journal_sync_seconds Duration of one journal flush\n"
            + "# TYPE sluice_journal_sync_seconds histogram\n"
            + "sluice_journal_sync_seconds_bucket{le=\"0.001\"} 3\n"
            + "sluice_journal_sync_seconds_count 42\n"
            + "sluice_journal_sync_seconds_count_total 7\n";

    @Test
    void findsTheUnlabelledSampleByItsWholeName() {
        assertThat(MetricValue.sample(TEXT, "sluice_journal_sync_seconds_count"))
                .contains("42");
    }

    @Test
    void aNameNotExposedIsEmpty() {
        assertThat(MetricValue.sample(TEXT, "sluice_journal_sync_seconds")).isEmpty();
    }
}
