package dev.sluice.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestFormatItem {
    @Test
    void theWidthReadsAsCsAtoi() {
        assertThat(FormatItem.parse("JobID")).isEqualTo(new FormatItem("JobID", 0, false));
        assertThat(FormatItem.parse("JobID%12")).isEqualTo(new FormatItem("JobID", 12, true));
        assertThat(FormatItem.parse("JobID%-12")).isEqualTo(new FormatItem("JobID", -12, true));
        assertThat(FormatItem.parse("JobID%+7")).isEqualTo(new FormatItem("JobID", 7, true));
        // Leading digits count, the rest is ignored; nothing numeric is 0.
        assertThat(FormatItem.parse("JobID%12x")).isEqualTo(new FormatItem("JobID", 12, true));
        assertThat(FormatItem.parse("JobID%abc")).isEqualTo(new FormatItem("JobID", 0, true));
        assertThat(FormatItem.parse("JobID%")).isEqualTo(new FormatItem("JobID", 0, true));
        assertThat(FormatItem.parse("%5")).isEqualTo(new FormatItem("", 5, true));
        // At most nine digits: no overflow.
        assertThat(FormatItem.parse("JobID%99999999999").width()).isEqualTo(999_999_999);
    }
}
