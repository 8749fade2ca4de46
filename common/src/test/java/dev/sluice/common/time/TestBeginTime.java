package dev.sluice.common.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The forms and rules of sbatch(1) {@code --begin}, with "now" fixed at Sunday
 * 2026-11-29T08:30:15 in Taipei.
 */
class TestBeginTime {

    static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 29, 8, 30, 15, 0, ZoneId.of("Asia/Taipei"));

    static String parse(String text) {
        Instant t = BeginTime.parse(text, NOW);
        return SlurmTimestamp.format(t, NOW.getZone());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "16:00                 | 2026-11-29T16:00:00",
                "08:30                 | 2026-11-30T08:30:00", // not ahead to the minute: tomorrow
                "08:31                 | 2026-11-29T08:31:00",
                "4:00 PM               | 2026-11-29T16:00:00",
                "12:00am               | 2026-11-30T00:00:00",
                "12:15pm               | 2026-11-29T12:15:00",
                "9:05:07               | 2026-11-29T09:05:07",
                "noon                  | 2026-11-29T12:00:00",
                "midnight              | 2026-11-30T00:00:00",
                "elevenses             | 2026-11-29T11:00:00",
                "fika                  | 2026-11-29T15:00:00",
                "teatime               | 2026-11-29T16:00:00",
                "today                 | 2026-11-29T00:00:00",
                "tomorrow              | 2026-11-30T00:00:00",
                "noon tomorrow         | 2026-11-30T12:00:00",
                "now                   | 2026-11-29T08:30:15",
                "now+60                | 2026-11-29T08:31:15",
                "now+1hour             | 2026-11-29T09:30:15",
                "now + 2 days          | 2026-12-01T08:30:15",
                "now+1week             | 2026-12-06T08:30:15",
                "now-30minutes         | 2026-11-29T08:00:15",
                "2010-01-20T12:34:00   | 2010-01-20T12:34:00",
                "2027-02-03            | 2027-02-03T00:00:00",
                "12/25                 | 2026-12-25T00:00:00",
                "0101                  | 2027-01-01T00:00:00", // already past this year
                "11/29 08:45           | 2026-11-29T08:45:00",
                "12.31.27              | 2027-12-31T00:00:00",
                "123127                | 2027-12-31T00:00:00",
            })
    void parsesSbatchBeginForms(String text, String expected) {
        assertThat(parse(text)).isEqualTo(expected);
    }

    // "2027-2-3T9:05": Slurm needs YYYY-MM-DD with two-digit fields to see a year first, then
    // reads "20" as a month and fails; so do we.
    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "later",
                "25:00",
                "12:60",
                "13:00pm",
                "2026-13-01",
                "2026-02-30",
                "now+",
                "now*2",
                "now+1fortnight",
                "1/32",
                "00/10",
                "12:5",
                "2027-2-3T9:05",
                "now+999999999999weeks"
            })
    void rejects(String text) {
        assertThatThrownBy(() -> BeginTime.parse(text, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid time specification");
    }
}
