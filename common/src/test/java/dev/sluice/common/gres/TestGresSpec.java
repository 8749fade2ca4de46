package dev.sluice.common.gres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Node {@code Gres=} values from slurm.conf(5) and the GRES guide (seed 001). */
class TestGresSpec {

    @Test
    void parsesTheGuidesNodeLine() {
        var specs = GresSpec.parseNodeList("gpu:tesla:2,gpu:kepler:2,mps:400,bandwidth:lustre:no_consume:4G");
        assertThat(specs)
                .extracting(GresSpec::toString)
                .containsExactly("gpu:tesla:2", "gpu:kepler:2", "mps:400", "bandwidth:lustre:no_consume:4G");
        assertThat(specs.get(3).noConsume()).isTrue();
        assertThat(specs.get(3).count()).isEqualTo(4L * 1024 * 1024 * 1024);
        assertThat(GresSpec.parseNodeList("gpu").getFirst().count()).isEqualTo(1);
        assertThat(GresSpec.parseNodeList("")).isEmpty();
    }

    @Test
    void rejectsMalformedItems() {
        assertThatThrownBy(() -> GresSpec.parseNodeList("gpu:a:b:2")).hasMessageContaining("gpu:a:b:2");
        assertThatThrownBy(() -> GresSpec.parseNodeList("gpu:2x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GresSpec.parseNodeList(",")).isInstanceOf(IllegalArgumentException.class);
    }
}
