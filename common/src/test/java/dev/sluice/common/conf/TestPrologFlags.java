package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestPrologFlags {
    @Test
    void withoutTheKeyThePrologRunsAtLaunchAndNothingWaits() {
        assertThat(PrologFlags.parse(List.of())).isEqualTo(PrologFlags.NONE);
        assertThat(PrologFlags.NONE.waited()).isFalse();
    }

    @Test
    void allocRunsItAtAllocationAndSallocWaits() {
        PrologFlags f = PrologFlags.parse(List.of("Alloc"));
        assertThat(f.alloc()).isTrue();
        assertThat(f.waited()).isTrue();
    }

    @Test
    void containAndX11ImplyAllocAsSlurmListsThem() {
        assertThat(PrologFlags.parse(List.of("contain")).alloc()).isTrue();
        assertThat(PrologFlags.parse(List.of("X11")).alloc()).isTrue();
        assertThat(PrologFlags.parse(List.of("Serial")).alloc()).isFalse();
    }

    @Test
    void noHoldLetsSallocGoOn() {
        PrologFlags f = PrologFlags.parse(List.of("Alloc", " NoHold"));
        assertThat(f.alloc()).isTrue();
        assertThat(f.waited()).isFalse();
    }
}
