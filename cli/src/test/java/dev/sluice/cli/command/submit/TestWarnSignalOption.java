package dev.sluice.cli.command.submit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code --signal} as Slurm 22.05 reads it; the refused forms are ones its sbatch answers with
 * {@code sbatch: error: Invalid --signal specification} (/work/shared/tools/real-slurm).
 */
class TestWarnSignalOption {
    @Test
    void acceptedForms() {
        assertThat(WarnSignalOption.parse("B:USR1@30")).contains(new WarnSignalOption.Spec(10, 30, true));
        assertThat(WarnSignalOption.parse("10")).contains(new WarnSignalOption.Spec(10, 60, false));
        assertThat(WarnSignalOption.parse("SIGUSR2@0")).contains(new WarnSignalOption.Spec(12, 0, false));
        assertThat(WarnSignalOption.parse("R:TERM@120")).contains(new WarnSignalOption.Spec(15, 120, false));
        assertThat(WarnSignalOption.parse("RB:USR1")).contains(new WarnSignalOption.Spec(10, 60, true));
    }

    @Test
    void refusedForms() {
        assertThat(WarnSignalOption.parse("FOO")).isEmpty();
        assertThat(WarnSignalOption.parse("B:USR1@abc")).isEmpty();
        assertThat(WarnSignalOption.parse("X:USR1")).isEmpty();
        assertThat(WarnSignalOption.parse("RB:SIGUSR2@70000")).isEmpty();
        assertThat(WarnSignalOption.parse("B:")).isEmpty();
        assertThat(WarnSignalOption.parse("USR1@")).isEmpty();
    }
}
