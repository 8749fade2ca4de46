package dev.sluice.common.gres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Request forms from sbatch(1) {@code --gres} and the GRES guide; rules as Slurm 22.05 parses them. */
class TestGresRequest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "gpu              | gpu:1",
                "gpu:2            | gpu:2",
                "gpu:a100:2       | gpu:a100:2",
                "gpu:tesla        | gpu:tesla:1",
                "mps:50           | mps:50",
                "shard:2          | shard:2",
                "gpu:2,mps:100    | gpu:2;mps:100",
                "bandwidth:lustre:4G | bandwidth:lustre:4294967296",
                "'gpu:1,,shard:1' | gpu:1;shard:1",
                "gres:gpu:2       | gpu:2",
                "gres/gpu:kepler:1 | gpu:kepler:1",
            })
    void parses(String text, String expected) {
        assertThat(GresRequest.parseList(text))
                .extracting(GresRequest::toString)
                .containsExactly(expected.split(";"));
    }

    @Test
    void zeroCountsAreDroppedAsSlurmDoes() {
        assertThat(GresRequest.parseList("gpu:0,mps:10"))
                .extracting(GresRequest::toString)
                .containsExactly("mps:10");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpu:", "gpu::1", "gpu:tesla:", "gpu:a100:x", "gpu:1x", ":2", "gpu:a:b:c", "2gpu"})
    void rejectsWithSlurmsMessage(String text) {
        assertThatThrownBy(() -> GresRequest.parseList(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid generic resource (gres) specification");
    }

    @Test
    void namesMustBeConfigured() {
        List<GresRequest> req = GresRequest.parseList("gpu:1,fpga:1");
        assertThatThrownBy(() -> GresRequest.checkConfigured(req, List.of("gpu")))
                .hasMessageContaining("fpga");
        GresRequest.checkConfigured(GresRequest.parseList("gpu:1"), List.of("gpu", "mps"));
    }

    @Test
    void tresPerNodeForm() {
        assertThat(GresRequest.parseList("gpu:a100:2").getFirst().toTresPerNode())
                .isEqualTo("gres/gpu:a100:2");
    }
}
