package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Flags= as sacctmgr 22.05 takes it (compat 192, 272). */
class TestQosFlags {
    @Test
    void knownNamesInAnyCaseComeBackInSacctmgrsSpellingAndOrder() {
        assertThat(QosFlags.parse("noreserve,DENYONLIMIT")).contains(List.of("DenyOnLimit", "NoReserve"));
    }

    @Test
    void unknownNamesAreDroppedAndNoneKnownSetsNothing() {
        assertThat(QosFlags.parse("DenyOnLimit,Bogus")).contains(List.of("DenyOnLimit"));
        assertThat(QosFlags.parse("-DenyOnLimit")).isEmpty();
    }

    @Test
    void minusOneClearsThem() {
        assertThat(QosFlags.parse("-1")).contains(List.of());
    }
}
