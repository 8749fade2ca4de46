package dev.sluice.common.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expectations follow sbatch(1) {@code --time} (accepted forms) and the formats of Slurm's
 * {@code time_str2mins} (seconds round up), {@code mins2time_str} (scontrol's TimeLimit=/MaxTime=),
 * squeue's and sinfo's duration printers, as documented in their man pages and sources (22.05).
 */
class TestTimeLimit {

    @ParameterizedTest
    @CsvSource({
        "0,0",
        "1,1",
        "90,90",
        "1:00,1",
        "0:30,1",
        "0:61,2",
        "1:00:00,60",
        "1:00:01,61",
        "2-0,2880",
        "1-2,1560",
        "1-2:30,1590",
        "1-02:03:04,1564",
        "UNLIMITED,-1",
        "infinite,-1",
        "-1,-1"
    })
    void parsesSbatchTimeForms(String text, long minutes) {
        long expected = minutes == -1 ? TimeLimit.INFINITE : minutes;
        assertThat(TimeLimit.parseMinutes(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"''", "abc", "1:2:3:4", "1-2:3:4:5", "-5", "1:", ":1", "1--2", "1-", "1.5", "99999999999"})
    void rejectsOtherText(String text) {
        assertThatThrownBy(() -> TimeLimit.parseMinutes(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid time limit specification");
    }

    @ParameterizedTest
    @CsvSource({"0,00:00:00", "30,00:30:00", "60,01:00:00", "1439,23:59:00", "1440,1-00:00:00", "2881,2-00:01:00"})
    void formatsAsScontrolShowJobTimeLimit(long minutes, String expected) {
        assertThat(TimeLimit.format(minutes)).isEqualTo(expected);
    }

    @Test
    void unlimitedAndNotSet() {
        assertThat(TimeLimit.format(TimeLimit.INFINITE)).isEqualTo("UNLIMITED");
        assertThat(TimeLimit.formatSqueue(TimeLimit.INFINITE)).isEqualTo("UNLIMITED");
        assertThat(TimeLimit.formatSqueue(TimeLimit.NOT_SET)).isEqualTo("NOT_SET");
        assertThat(TimeLimit.formatSinfo(TimeLimit.INFINITE)).isEqualTo("infinite");
    }

    /**
     * Recorded from Slurm 22.05 (compat 031 and by hand): {@code sbatch -t -5} is taken, squeue
     * shows INVALID and scontrol 2982611-04:17:00 (minus 7199 minutes in 32 unsigned bits).
     */
    @Test
    void aNegativeJobTimeIsMinusThatManyDaysAsSlurmStoresIt() {
        long minutes = TimeLimit.parseJobMinutes("-5");
        assertThat(minutes).isEqualTo(-7199);
        long stored = Integer.toUnsignedLong((int) minutes);
        assertThat(TimeLimit.formatSqueue(stored)).isEqualTo("INVALID");
        assertThat(TimeLimit.format(stored)).isEqualTo("2982611-04:17:00");
        assertThat(TimeLimit.format(Integer.toUnsignedLong((int) TimeLimit.parseJobMinutes("-2"))))
                .isEqualTo("2982614-04:17:00");
        assertThat(TimeLimit.parseJobMinutes("-1")).isEqualTo(TimeLimit.INFINITE);
        assertThatThrownBy(() -> TimeLimit.parseJobMinutes("-10:00")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TimeLimit.parseMinutes("-5")).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({"30,30:00", "60,1:00:00", "1440,1-00:00:00", "1,1:00"})
    void formatsAsSqueueAndSinfoTimeLimit(long minutes, String expected) {
        assertThat(TimeLimit.formatSqueue(minutes)).isEqualTo(expected);
        assertThat(TimeLimit.formatSinfo(minutes)).isEqualTo(expected);
    }

    // squeue %M
    @ParameterizedTest
    @CsvSource({"0,0:00", "65,1:05", "3723,1:02:03", "93784,1-02:03:04", "-1,INVALID", "31536001,INVALID"})
    void elapsedAsSqueuePrintsIt(long seconds, String expected) {
        assertThat(Elapsed.format(seconds)).isEqualTo(expected);
    }

    @Test
    void timestampsAreIsoLocalTimeWithSlurmsSpecialWords() {
        Instant t = Instant.parse("2026-11-29T08:30:00Z");
        assertThat(SlurmTimestamp.format(t, ZoneId.of("UTC"))).isEqualTo("2026-11-29T08:30:00");
        assertThat(SlurmTimestamp.format(t, ZoneId.of("Asia/Taipei"))).isEqualTo("2026-11-29T16:30:00");
        assertThat(SlurmTimestamp.format(null, ZoneId.of("UTC"))).isEqualTo("Unknown");
        assertThat(SlurmTimestamp.format(Instant.EPOCH, ZoneId.of("UTC"))).isEqualTo("Unknown");
        assertThat(SlurmTimestamp.formatOrNone(null, ZoneId.of("UTC"))).isEqualTo("None");
    }
}
