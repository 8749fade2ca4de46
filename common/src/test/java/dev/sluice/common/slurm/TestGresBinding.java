package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** sbatch(1) --gres-flags in Slurm 22.05: disable-binding or enforce-binding, one of them. */
class TestGresBinding {

    @Test
    void eitherWordInAnyCase() {
        assertThat(GresBinding.parse("Enforce-Binding")).isEqualTo(GresBinding.ENFORCE);
        assertThat(GresBinding.parse("disable-binding")).isEqualTo(GresBinding.DISABLE);
        assertThat(GresBinding.ENFORCE.wireName()).isEqualTo("enforce-binding");
    }

    @Test
    void theWiresEmptyWordIsNotGivenButSbatchRefusesIt() {
        assertThat(GresBinding.fromWire("")).isEqualTo(GresBinding.NOT_GIVEN);
        assertThat(GresBinding.fromWire("enforce-binding")).isEqualTo(GresBinding.ENFORCE);
        assertThatThrownBy(() -> GresBinding.parse("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aListOrAnotherWordIsRefused() {
        assertThatThrownBy(() -> GresBinding.fromWire("enforce-binding,disable-binding"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid --gres-flags specification");
        assertThatThrownBy(() -> GresBinding.parse(" enforce-binding")).isInstanceOf(IllegalArgumentException.class);
    }
}
