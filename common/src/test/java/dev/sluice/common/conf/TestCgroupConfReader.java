package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Defaults and keys from cgroup.conf(5). */
class TestCgroupConfReader {

    @Test
    void defaults() {
        CgroupConf c = CgroupConf.defaults();
        assertThat(c.cgroupPlugin()).isEqualTo("autodetect");
        assertThat(c.cgroupMountpoint()).isEqualTo("/sys/fs/cgroup");
        assertThat(c.constrainCores()).isFalse();
        assertThat(c.allowedRamSpacePercent()).isEqualTo(100);
        assertThat(c.allowedSwapSpacePercent()).isZero();
        assertThat(c.minRamSpaceMb()).isEqualTo(30);
    }

    @Test
    void explicit() throws Exception {
        CgroupConf c = CgroupConfReader.parse("""
                CgroupPlugin=cgroup/v2
                constraincores=yes
                ConstrainDevices=yes
                ConstrainRAMSpace=yes
                AllowedRAMSpace=95.5
                MaxSwapPercent=10
                """, "cgroup.conf");
        assertThat(c.cgroupPlugin()).isEqualTo("cgroup/v2");
        assertThat(c.constrainCores()).isTrue();
        assertThat(c.constrainDevices()).isTrue();
        assertThat(c.constrainRamSpace()).isTrue();
        assertThat(c.allowedRamSpacePercent()).isEqualTo(95.5);
        assertThat(c.maxSwapPercent()).isEqualTo(10);
        assertThat(c.value("CONSTRAINCORES")).contains("yes");
    }

    @Test
    void allowedKmemSpaceIsBytes() throws Exception {
        // cgroup.conf(5): "specified in bytes"; Slurm 22.05 prints AllowedKmemSpace=1000 as 1000 Bytes.
        CgroupConf c = CgroupConfReader.parse("AllowedKmemSpace=1000\n", "cgroup.conf");
        assertThat(c.value("AllowedKmemSpace")).contains("1000");
    }

    @Test
    void errors() {
        assertThatThrownBy(() -> CgroupConfReader.parse("CgroupReleaseAgentDir=/x\n", "cgroup.conf"))
                .hasMessage("cgroup.conf:1: Support for CgroupReleaseAgentDir option has been removed.");
        assertThatThrownBy(() -> CgroupConfReader.parse("ConstrainCore=yes\n", "cgroup.conf"))
                .hasMessage("cgroup.conf:1: unknown key \"ConstrainCore\" (did you mean \"ConstrainCores\"?)");
        assertThatThrownBy(() -> CgroupConfReader.parse("ConstrainCores=maybe\n", "c"))
                .hasMessageContaining("not a valid option");
        assertThatThrownBy(() -> CgroupConfReader.parse("MaxRAMPercent=150\n", "c"))
                .hasMessageContaining("between 0 and 100");
    }

    @Test
    void oneKeyPerLineAsInSlurm() {
        assertThatThrownBy(() -> CgroupConfReader.parse("ConstrainCores=yes ConstrainDevices=yes\n", "c"))
                .hasMessageStartingWith("c:1: Parse error: \"ConstrainDevices=yes\"");
    }
}
