package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestCpuBinding {
    @Test
    void coreHoldsThreadsPerCoreConsecutiveCpus() {
        // Slurm's abstract numbering: core i = CPUs i*ThreadsPerCore .. (i+1)*ThreadsPerCore-1.
        assertThat(CpuBinding.cpus(List.of(1, 3), 2)).containsExactly(2, 3, 6, 7);
        assertThat(CpuBinding.cpus(List.of(2, 0), 1)).containsExactly(0, 2);
        assertThat(CpuBinding.cpus(List.of(1), 4)).containsExactly(4, 5, 6, 7);
    }

    @Test
    void cpuListIsWrittenAsLinuxWritesCpusAllowedList() {
        // Format of /proc/self/status Cpus_allowed_list (proc(5)): ranges joined by commas.
        assertThat(CpuBinding.cpuList(List.of(0, 1, 2, 3, 6))).isEqualTo("0-3,6");
        assertThat(CpuBinding.cpuList(List.of(5))).isEqualTo("5");
        assertThat(CpuBinding.cpuList(List.of(7, 1, 0, 9, 8))).isEqualTo("0-1,7-9");
    }

    @Test
    void onlyTaskAffinityOrTaskCgroupBind() {
        assertThat(CpuBinding.binds(List.of())).isFalse();
        assertThat(CpuBinding.binds(List.of("task/none"))).isFalse();
        assertThat(CpuBinding.binds(List.of("task/affinity"))).isTrue();
        assertThat(CpuBinding.binds(List.of("task/cgroup", "task/affinity"))).isTrue();
        assertThat(CpuBinding.binds(List.of("Task/Cgroup"))).isTrue();
    }

    @Test
    void prefixBindsWithTasksetOnlyWhenThePolicyBindsAndCoresAreKnown() {
        CpuBinding.Policy affinity = CpuBinding.Policy.of(List.of("task/affinity"), 2);
        assertThat(affinity.prefix(List.of(0, 1))).containsExactly("taskset", "--cpu-list", "0-3");
        assertThat(affinity.prefix(List.of())).isEmpty();
        assertThat(CpuBinding.Policy.of(List.of("task/none"), 2).prefix(List.of(0)))
                .isEmpty();
        assertThat(CpuBinding.Policy.NONE.prefix(List.of(0))).isEmpty();
    }

    @Test
    void badInputIsRefused() {
        assertThatThrownBy(() -> CpuBinding.cpus(List.of(0), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CpuBinding.cpus(List.of(-1), 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
