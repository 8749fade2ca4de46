package dev.sluice.noded.confine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cgroup v1 confinement against a fake tree of controller directories (the kernel: {@link TestCgroupKernel}). */
class TestCgroupV1 {
    private static final ConfinementPolicy ALL = ConfinementPolicy.sluiceDefault();

    @TempDir
    Path mount;

    @BeforeEach
    void controllers() throws Exception {
        for (String c : List.of("memory", "cpuset", "devices")) {
            Files.createDirectories(mount.resolve(c));
            Files.writeString(mount.resolve(c).resolve("cgroup.procs"), "");
        }
        Files.writeString(mount.resolve("cpuset/cpuset.cpus"), "0-3");
        Files.writeString(mount.resolve("cpuset/cpuset.mems"), "0");
        // What the kernel shows in a new cpuset: nothing until it is written.
        Files.createDirectories(mount.resolve("cpuset/sluice_n1"));
        Files.writeString(mount.resolve("cpuset/sluice_n1/cpuset.cpus"), "");
        Files.writeString(mount.resolve("cpuset/sluice_n1/cpuset.mems"), "");
    }

    @Test
    void theParentCpusetGetsTheRootsCpusAndMemoryNodes() throws Exception {
        CgroupV1 v1 = CgroupV1.open(mount, "sluice_n1", ALL, 4);
        assertThat(Files.readString(mount.resolve("cpuset/sluice_n1/cpuset.cpus")))
                .isEqualTo("0-3");
        assertThat(Files.readString(mount.resolve("cpuset/sluice_n1/cpuset.mems")))
                .isEqualTo("0");
        assertThat(v1.describe())
                .isEqualTo("cgroup v1 at " + mount + ": jobs are confined in <controller>/sluice_n1/job_N"
                        + " (memory, cpuset, devices; memory, cpuset, devices)");
    }

    @Test
    void aJobGetsOneCgroupPerControllerWithItsLimits() throws Exception {
        CgroupV1 v1 = CgroupV1.open(mount, "sluice_n1", ALL, 4);
        Path devices = Files.createDirectories(mount.resolve("devices/sluice_n1/job_9"));
        List<DeviceFile> deny = List.of(new DeviceFile("/dev/nvidia1", 'c', 195, 1));
        List<Path> dirs = v1.create(new JobLimits(9, 256L << 20, -1, 2, List.of(), deny));
        assertThat(dirs)
                .containsExactly(
                        mount.resolve("memory/sluice_n1/job_9"), mount.resolve("cpuset/sluice_n1/job_9"), devices);
        assertThat(Files.readString(dirs.get(0).resolve("memory.limit_in_bytes")))
                .isEqualTo("268435456");
        assertThat(Files.readString(dirs.get(1).resolve("cpuset.cpus"))).isEqualTo("0-1");
        assertThat(Files.readString(dirs.get(1).resolve("cpuset.mems"))).isEqualTo("0");
        assertThat(Files.readString(devices.resolve("devices.deny"))).isEqualTo("c 195:1 rwm");
        assertThat(v1.existing(9)).isEqualTo(dirs);
        // The next job gets the CPUs this one does not hold.
        Path next = v1.create(new JobLimits(10, 0, -1, 2, List.of(), List.of())).get(1);
        assertThat(Files.readString(next.resolve("cpuset.cpus"))).isEqualTo("2-3");
        assertThat(mount.resolve("memory/sluice_n1/job_10/memory.limit_in_bytes"))
                .doesNotExist();
    }

    @Test
    void withoutCoreConstraintTheJobGetsTheNodesCpus() throws Exception {
        CgroupV1 v1 = CgroupV1.open(mount, "sluice_n1", ALL, 4);
        Path cpuset =
                v1.create(new JobLimits(3, 0, -1, 0, List.of(), List.of())).get(1);
        assertThat(Files.readString(cpuset.resolve("cpuset.cpus"))).isEqualTo("0-3");
    }

    @Test
    void swapIsTheMemoryPlusTheAllowedSwap() throws Exception {
        CgroupV1 v1 = CgroupV1.open(mount, "sluice_n1", ALL, 4);
        Path memory = Files.createDirectories(mount.resolve("memory/sluice_n1/job_2"));
        Files.writeString(memory.resolve("memory.memsw.limit_in_bytes"), "9223372036854771712");
        v1.create(new JobLimits(2, 1000, 500, 0, List.of(), List.of()));
        assertThat(Files.readString(memory.resolve("memory.memsw.limit_in_bytes")))
                .isEqualTo("1500");
    }

    @Test
    void anOomKillIsReadFromOomControl() throws Exception {
        CgroupV1 v1 = CgroupV1.open(mount, "sluice_n1", ALL, 4);
        Path memory = v1.create(new JobLimits(4, 1 << 20, -1, 0, List.of(), List.of()))
                .get(0);
        Files.writeString(memory.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n");
        assertThat(v1.oomKilled(4)).isFalse();
        Files.writeString(memory.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
        assertThat(v1.oomKilled(4)).isTrue();
    }

    @Test
    void onlyTheControllersThePolicyNeedsAreUsed() throws Exception {
        ConfinementPolicy ramOnly = new ConfinementPolicy(
                "cgroup/v1", mount.toString(), true, false, false, false, 100, 0, 0, 100, 100, List.of());
        CgroupV1 v1 = CgroupV1.open(mount, "sluice_n1", ramOnly, 4);
        assertThat(v1.create(new JobLimits(1, 0, -1, 0, List.of(), List.of())))
                .containsExactly(mount.resolve("memory/sluice_n1/job_1"));
    }

    @Test
    void withoutTheMemoryControllerThereIsNoV1() throws Exception {
        Files.delete(mount.resolve("memory/cgroup.procs"));
        assertThatThrownBy(() -> CgroupV1.open(mount, "sluice_n1", ALL, 4))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("memory controller is not mounted writable");
    }

    @Test
    void aStepGetsItsOwnCpusetAndDevicesCgroupsUnderItsJobsAndStaysInItsMemory() throws Exception {
        CgroupV1 v1 = CgroupV1.open(mount, "sluice_n1", ALL, 4);
        List<Path> job = v1.create(new JobLimits(6, 1 << 20, -1, 0, List.of(2, 3), List.of()));
        List<DeviceFile> deny = List.of(new DeviceFile("/dev/nvidia0", 'c', 195, 0));
        List<Path> step = v1.createStep(6, Confinement.stepName(1), deny);
        assertThat(step)
                .containsExactly(
                        mount.resolve("memory/sluice_n1/job_6"),
                        mount.resolve("cpuset/sluice_n1/job_6/step_1"),
                        mount.resolve("devices/sluice_n1/job_6/step_1"));
        assertThat(Files.readString(step.get(1).resolve("cpuset.cpus")))
                .as("the job's CPUs")
                .isEqualTo("2-3");
        assertThat(Files.readString(step.get(1).resolve("cpuset.mems"))).isEqualTo("0");
        assertThat(Files.readString(step.get(2).resolve("devices.deny"))).isEqualTo("c 195:0 rwm");
        assertThat(job.get(2).resolve("devices.deny"))
                .as("the job's own rules are untouched")
                .doesNotExist();
    }

    @Test
    void aStepsCgroupsGoWhenItEndsAndTheJobsStay() throws Exception {
        ConfinementPolicy devicesOnly = new ConfinementPolicy(
                "cgroup/v1", mount.toString(), false, false, false, true, 100, 0, 0, 100, 100, List.of());
        CgroupV1 v1 = CgroupV1.open(mount, "sluice_n1", devicesOnly, 4);
        v1.create(new JobLimits(7, 0, -1, 0, List.of(), List.of()));
        v1.createStep(7, "step_0", List.of());
        v1.createStep(7, Confinement.BATCH_STEP, List.of());
        v1.removeStep(7, "step_0");
        assertThat(mount.resolve("devices/sluice_n1/job_7/step_0")).doesNotExist();
        assertThat(mount.resolve("devices/sluice_n1/job_7/step_batch")).isDirectory();
        v1.remove(7);
        assertThat(mount.resolve("devices/sluice_n1/job_7")).doesNotExist();
        assertThat(mount.resolve("memory/sluice_n1/job_7")).doesNotExist();
    }
}
