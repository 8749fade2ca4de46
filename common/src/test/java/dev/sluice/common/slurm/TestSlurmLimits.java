package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.time.TimeLimit;
import org.junit.jupiter.api.Test;

class TestSlurmLimits {
    @Test
    void theSentinelsAreSlurms() {
        assertThat(SlurmLimits.NO_VAL).isEqualTo(4294967294L);
        assertThat(SlurmLimits.INFINITE).isEqualTo(4294967295L);
        assertThat(SlurmLimits.NO_VAL32).isEqualTo(-2);
        assertThat(SlurmLimits.INFINITE32).isEqualTo(-1);
    }

    @Test
    void timeLimitsCrossTheWireBothWays() {
        for (long minutes : new long[] {0, 1, 60, 4294967293L, TimeLimit.INFINITE, TimeLimit.NOT_SET}) {
            assertThat(SlurmLimits.fromWire(SlurmLimits.toWire(minutes))).isEqualTo(minutes);
        }
        assertThat(SlurmLimits.toUint32(TimeLimit.INFINITE)).isEqualTo(SlurmLimits.INFINITE);
        assertThat(SlurmLimits.toUint32(TimeLimit.NOT_SET)).isEqualTo(SlurmLimits.NO_VAL);
        assertThat(SlurmLimits.toUint32(30)).isEqualTo(30);
        assertThatThrownBy(() -> SlurmLimits.toWire(SlurmLimits.NO_VAL)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyRealLimitsAreLimits() {
        assertThat(SlurmLimits.isLimit(30)).isTrue();
        assertThat(SlurmLimits.isLimit(SlurmLimits.NO_VAL)).isFalse();
        assertThat(SlurmLimits.isLimit(SlurmLimits.INFINITE)).isFalse();
    }
}
