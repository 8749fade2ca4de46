package dev.sluice.cli.command.sreport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Where sreport says a Start=/End= it cannot read goes wrong, as Slurm's parse_time counts. */
class TestTimeSpecError {
    @Test
    void aMonthOrDayOutOfRangeIsPointedAt() {
        assertThat(TimeSpecError.message("2020-13-45")).isEqualTo("Invalid time specification (pos=5): 2020-13-45");
        assertThat(TimeSpecError.position("2020-12-45")).isEqualTo(8);
        assertThat(TimeSpecError.position("20x0-01-01")).isEqualTo(2);
    }

    @Test
    void anUnknownWordIsAtZero() {
        assertThat(TimeSpecError.message("bogus")).isEqualTo("Invalid time specification (pos=0): bogus");
    }
}
