package dev.sluice.noded.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Arch=, OS= and BootTime= from /proc text, as Slurm 22.05's node daemon reports them. */
class TestMachineFacts {
    @Test
    void archIsUnamesMachineWhereTheKernelSaysIt() {
        assertThat(MachineFacts.arch("x86_64\n", "amd64")).isEqualTo("x86_64");
        assertThat(MachineFacts.arch("aarch64\n", "aarch64")).isEqualTo("aarch64");
    }

    @Test
    void withoutTheKernelsWordTheJvmsNameIsSpelledAsUnameSpellsIt() {
        assertThat(MachineFacts.arch("", "amd64")).isEqualTo("x86_64");
        assertThat(MachineFacts.arch("", "aarch64")).isEqualTo("aarch64");
    }

    @Test
    void osIsSystemReleaseAndVersion() {
        // Recorded on the oracle's machine: OS=Linux 6.18.44-fc-v1272 #1 SMP PREEMPT_DYNAMIC @0
        assertThat(MachineFacts.os("Linux\n", "6.18.44-fc-v1272\n", "#1 SMP PREEMPT_DYNAMIC @0\n", "Linux"))
                .isEqualTo("Linux 6.18.44-fc-v1272 #1 SMP PREEMPT_DYNAMIC @0");
        assertThat(MachineFacts.os("", "", "", "Linux")).isEqualTo("Linux");
    }

    @Test
    void bootTimeIsNowLessTheUptime() {
        assertThat(MachineFacts.bootTime("1234.56 4567.89\n", 10_000)).isEqualTo(10_000 - 1234);
        assertThat(MachineFacts.bootTime("", 10_000)).isZero();
    }
}
