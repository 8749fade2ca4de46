package dev.sluice.noded.confine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.conf.CgroupConfReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which cgroup version a node uses and what it enforces, from cgroup.conf, TaskPlugin and the mounts. */
class TestConfinementChoice {
    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final String HYBRID = """
            tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
            cgroup /sys/fs/cgroup/cpuset cgroup rw,relatime,cpuset 0 0
            cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0
            cgroup /sys/fs/cgroup/devices cgroup rw,relatime,devices 0 0
            cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
            """;
    private static final String UNIFIED = "proc /proc proc rw 0 0\ncgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n";

    private static ConfinementPolicy policy(String cgroupConf, String... taskPlugins) throws Exception {
        return ConfinementPolicy.of(
                Optional.of(CgroupConfReader.parse(cgroupConf, "cgroup.conf")), List.of(taskPlugins));
    }

    @Test
    void autodetectReadsTheMounts() {
        assertThat(Confinements.detect(HYBRID, ROOT)).isEqualTo(Confinements.Version.V1);
        assertThat(Confinements.detect(HYBRID, ROOT.resolve("unified"))).isEqualTo(Confinements.Version.V2);
        assertThat(Confinements.detect(UNIFIED, ROOT)).isEqualTo(Confinements.Version.V2);
        assertThat(Confinements.detect("tmpfs /sys/fs/cgroup tmpfs rw 0 0\n", ROOT))
                .isEqualTo(Confinements.Version.NONE);
    }

    @Test
    void cgroupPluginPicksTheVersionOrSaysWhyNone() {
        assertThat(Confinements.choose("autodetect", Confinements.Version.V1, ROOT)
                        .version())
                .isEqualTo(Confinements.Version.V1);
        assertThat(Confinements.choose("cgroup/v2", Confinements.Version.V1, ROOT)
                        .why())
                .isEqualTo("CgroupPlugin=cgroup/v2 but cgroup v2 is not mounted at /sys/fs/cgroup: jobs run"
                        + " without memory, CPU or device limits, tracked by their session");
        assertThat(Confinements.choose("cgroup/v1", Confinements.Version.V2, ROOT)
                        .why())
                .startsWith("CgroupPlugin=cgroup/v1 but no cgroup v1 controllers are mounted under");
        assertThat(Confinements.choose("disabled", Confinements.Version.V2, ROOT)
                        .why())
                .startsWith("CgroupPlugin=disabled in cgroup.conf: jobs run without");
        assertThat(Confinements.choose("autodetect", Confinements.Version.NONE, ROOT)
                        .why())
                .startsWith("no cgroup hierarchy is mounted at /sys/fs/cgroup");
    }

    @Test
    void aNodeWithoutCgroupsSaysSoOnce() {
        Confinement none = Confinements.open(ConfinementPolicy.sluiceDefault(), "n1", 2, "proc /proc proc rw 0 0\n");
        assertThat(none.confines()).isFalse();
        assertThat(Confinements.startLines(ConfinementPolicy.sluiceDefault(), none))
                .containsExactly("no cgroup hierarchy is mounted at /sys/fs/cgroup: jobs run without memory, CPU or"
                        + " device limits, tracked by their session");
    }

    @Test
    void withoutCgroupConfEverythingIsConfined() {
        ConfinementPolicy p = ConfinementPolicy.of(Optional.empty(), List.of("task/none"));
        assertThat(p.ram() && p.cores() && p.devices()).isTrue();
        assertThat(p.swap()).isFalse();
        assertThat(p.constraints()).isEqualTo("memory, cpuset, devices");
    }

    @Test
    void withCgroupConfSlurmsDefaultsAreNo() throws Exception {
        ConfinementPolicy p = policy("CgroupPlugin=cgroup/v1\n", "task/cgroup");
        assertThat(p.ram() || p.swap() || p.cores() || p.devices()).isFalse();
        assertThat(p.plugin()).isEqualTo("cgroup/v1");
        assertThat(p.constraints()).isEqualTo("no limits, tracking only");
    }

    @Test
    void constraintsNeedTaskCgroup() throws Exception {
        String conf = "ConstrainRAMSpace=yes\nConstrainCores=yes\nConstrainDevices=yes\n";
        ConfinementPolicy with = policy(conf, "task/affinity", "task/cgroup");
        assertThat(with.ram() && with.cores() && with.devices()).isTrue();
        assertThat(with.notes()).isEmpty();
        ConfinementPolicy without = policy(conf, "task/affinity");
        assertThat(without.ram() || without.cores() || without.devices()).isFalse();
        assertThat(without.notes()).singleElement().asString().contains("TaskPlugin does not name task/cgroup");
    }

    @Test
    void theRamLimitFollowsAllowedMinAndMaxPercent() throws Exception {
        ConfinementPolicy p =
                policy("ConstrainRAMSpace=yes\nAllowedRAMSpace=150\nMinRAMSpace=64\nMaxRAMPercent=50\n", "task/cgroup");
        long mb = 1 << 20;
        assertThat(p.limits(1, 100, 1000, 0, List.of(), List.of()).memoryBytes())
                .isEqualTo(150 * mb);
        assertThat(p.limits(1, 10, 1000, 0, List.of(), List.of()).memoryBytes())
                .as("MinRAMSpace")
                .isEqualTo(64 * mb);
        assertThat(p.limits(1, 900, 1000, 0, List.of(), List.of()).memoryBytes())
                .as("MaxRAMPercent")
                .isEqualTo(500 * mb);
        assertThat(p.limits(1, 0, 1000, 0, List.of(), List.of()).memoryBytes())
                .as("no memory asked")
                .isZero();
        assertThat(p.limits(1, 100, 1000, 0, List.of(), List.of()).swapBytes()).isEqualTo(-1);
    }

    @Test
    void swapIsAllowedSwapSpaceOfTheJobsMemory() throws Exception {
        ConfinementPolicy p = policy("ConstrainSwapSpace=yes\nAllowedSwapSpace=10\n", "task/cgroup");
        JobLimits l = p.limits(1, 1000, 0, 0, List.of(), List.of());
        assertThat(l.memoryBytes()).isEqualTo(1000L << 20);
        assertThat(l.swapBytes()).isEqualTo(100L << 20);
    }

    @Test
    void unconstrainedCoresAndDevicesLeaveTheLimitsEmpty() throws Exception {
        ConfinementPolicy p = policy("ConstrainRAMSpace=yes\n", "task/cgroup");
        JobLimits l = p.limits(1, 10, 0, 2, List.of(0, 1), List.of(new DeviceFile("/dev/x", 'c', 1, 3)));
        assertThat(l.constrainsCpus()).isFalse();
        assertThat(l.denied()).isEmpty();
    }

    @Test
    void anUnknownPluginIsAutodetectedWithANote() throws Exception {
        ConfinementPolicy p = policy("CgroupPlugin=cgroup/v3\n", "task/cgroup");
        assertThat(p.plugin()).isEqualTo("autodetect");
        assertThat(p.notes()).singleElement().asString().contains("CgroupPlugin=cgroup/v3 is not one of");
    }

    /** Two clusters on one host both have a node1: their daemons' job cgroups must not meet. */
    @org.junit.jupiter.api.Test
    void theParentCgroupIsPerNodeAndPerSpoolUnlessSlurmdsDefault() {
        assertThat(Confinements.parentName("n1", "/var/spool/slurmd")).isEqualTo("sluice_n1");
        String a = Confinements.parentName("node1", "/tmp/a/spool/node1");
        String b = Confinements.parentName("node1", "/tmp/b/spool/node1");
        assertThat(a).matches("sluice_node1_[0-9a-f]{8}").isNotEqualTo(b);
        assertThat(Confinements.parentName("node1", "/tmp/a/spool/node1")).isEqualTo(a);
    }
}
