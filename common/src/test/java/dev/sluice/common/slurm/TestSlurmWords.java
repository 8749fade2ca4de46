package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One reading of Slurm's option words for {@link GresBinding} and {@link OpenMode}: the whole
 * word ({@code --gres-flags}), a start of it (the controller's {@code OpenMode}) or its first
 * letter ({@code --open-mode} in sbatch and srun), case ignored, the empty "not given" never.
 */
class TestSlurmWords {

    @Test
    void howMuchOfTheWordMustBeTypedIsTheOptions() {
        GresBinding[] g = GresBinding.values();
        assertThat(SlurmWords.read(g, GresBinding::wireName, "ENFORCE-binding", SlurmWords.Match.WHOLE))
                .contains(GresBinding.ENFORCE);
        assertThat(SlurmWords.read(g, GresBinding::wireName, "enforce", SlurmWords.Match.WHOLE))
                .isEmpty();
        OpenMode[] o = OpenMode.values();
        assertThat(SlurmWords.read(o, OpenMode::wireName, "TRUNC", SlurmWords.Match.PREFIX))
                .contains(OpenMode.TRUNCATE);
        assertThat(SlurmWords.read(o, OpenMode::wireName, "apple", SlurmWords.Match.PREFIX))
                .isEmpty();
        assertThat(SlurmWords.read(o, OpenMode::wireName, "apple", SlurmWords.Match.INITIAL))
                .contains(OpenMode.APPEND);
    }

    @Test
    void theEmptyNotGivenWordIsNeverMatched() {
        for (SlurmWords.Match m : SlurmWords.Match.values()) {
            assertThat(SlurmWords.read(OpenMode.values(), OpenMode::wireName, "", m))
                    .isEmpty();
            assertThat(SlurmWords.read(GresBinding.values(), GresBinding::wireName, null, m))
                    .isEmpty();
        }
    }

    @Test
    void openModeAsTheControllerAndAsTheCommandsReadIt() {
        assertThat(OpenMode.parse("")).isEqualTo(OpenMode.NOT_GIVEN);
        assertThat(OpenMode.parse(" Append ")).isEqualTo(OpenMode.APPEND);
        assertThat(OpenMode.parse("t")).isEqualTo(OpenMode.TRUNCATE);
        assertThatThrownBy(() -> OpenMode.parse("apple"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid --open-mode: apple");
        assertThatThrownBy(() -> OpenMode.parse(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThat(OpenMode.option("Apple")).contains(OpenMode.APPEND);
        assertThat(OpenMode.option("tx")).contains(OpenMode.TRUNCATE);
        assertThat(OpenMode.option(" append")).isEqualTo(Optional.empty());
        assertThat(OpenMode.option("")).isEmpty();
    }
}
