package dev.sluice.noded.confine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cgroup v2 confinement against a fake cgroup tree in a temporary directory (memory and cpuset;
 * devices need the kernel: {@link TestCgroupKernel}).
 */
class TestCgroupV2 {
    private static final ConfinementPolicy NO_DEVICES =
            new ConfinementPolicy("cgroup/v2", "/x", true, false, true, false, 100, 0, 0, 100, 100, List.of());

    @TempDir
    Path root;

    private CgroupV2 fakeCgroup2() throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        return CgroupV2.open(root, "sluice_n1", NO_DEVICES, 4);
    }

    private static JobLimits limits(int job, long mb, int cpus, List<Integer> ids) {
        return new JobLimits(job, mb * 1024 * 1024, -1, cpus, ids, List.of());
    }

    @Test
    void aJobGetsItsMemoryLimitAndTheLowestFreeCpus() throws Exception {
        CgroupV2 cgroups = fakeCgroup2();
        assertThat(root.resolve("sluice_n1")).isDirectory();
        assertThat(cgroups.create(limits(5, 100, 2, List.of()))).containsExactly(root.resolve("sluice_n1/job_5"));
        Path first = root.resolve("sluice_n1/job_5");
        assertThat(Files.readString(first.resolve("memory.max"))).isEqualTo("104857600");
        assertThat(Files.readString(first.resolve("cpuset.cpus"))).isEqualTo("0-1");
        Path second = cgroups.create(limits(6, 0, 1, List.of())).get(0);
        assertThat(Files.readString(second.resolve("memory.max"))).isEqualTo("max");
        assertThat(Files.readString(second.resolve("cpuset.cpus"))).isEqualTo("2");
        assertThat(cgroups.existing(6)).containsExactly(second);
        assertThat(cgroups.existing(7)).isEmpty();
        assertThat(cgroups.describe())
                .isEqualTo("cgroup v2 at " + root + ": jobs are confined in sluice_n1/job_N (memory, cpuset;"
                        + " memory, cpuset)");
    }

    @Test
    void theAllocatedCpusAreTheSetWhenTheLaunchNamesThem() throws Exception {
        CgroupV2 cgroups = fakeCgroup2();
        Path dir = cgroups.create(limits(11, 0, 2, List.of(2, 3))).get(0);
        assertThat(Files.readString(dir.resolve("cpuset.cpus"))).isEqualTo("2-3");
        Path other = cgroups.create(limits(12, 0, 2, List.of())).get(0);
        assertThat(Files.readString(other.resolve("cpuset.cpus"))).isEqualTo("0-1");
    }

    @Test
    void swapIsWrittenWhereTheKernelOffersIt() throws Exception {
        CgroupV2 cgroups = fakeCgroup2();
        Path dir = root.resolve("sluice_n1/job_3");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("memory.swap.max"), "max");
        cgroups.create(new JobLimits(3, 1 << 20, 1 << 19, 0, List.of(), List.of()));
        assertThat(Files.readString(dir.resolve("memory.swap.max"))).isEqualTo("524288");
    }

    @Test
    void anOomKillIsReadFromMemoryEvents() throws Exception {
        CgroupV2 cgroups = fakeCgroup2();
        Path dir = cgroups.create(limits(7, 10, 1, List.of())).get(0);
        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n");
        assertThat(cgroups.oomKilled(7)).isFalse();
        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n");
        assertThat(cgroups.oomKilled(7)).isTrue();
        assertThat(cgroups.oomKilled(8)).as("no cgroup, no OOM").isFalse();
    }

    @Test
    void withoutTheMemoryControllerJobsAreTrackedOnly() throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu io pids\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        CgroupV2 cgroups = CgroupV2.open(root, "sluice_n1", NO_DEVICES, 4);
        Path dir = cgroups.create(limits(4, 100, 1, List.of())).get(0);
        assertThat(dir.resolve("memory.max")).doesNotExist();
        assertThat(cgroups.describe()).endsWith("the kernel does not delegate memory, cpuset here");
    }

    @Test
    void anAbsentHierarchyCannotBeOpened() {
        assertThatThrownBy(() -> CgroupV2.open(root.resolve("absent"), "p", NO_DEVICES, 4))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("is not writable");
    }

    @Test
    void theJoiningCommandPutsItselfIntoEachCgroupThenExecs() throws Exception {
        Path a = Files.createDirectories(root.resolve("a"));
        Path b = Files.createDirectories(root.resolve("b"));
        Process p = new ProcessBuilder(Confinement.joining(List.of(a, b), List.of("sh", "-c", "echo $$")))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertThat(p.waitFor()).isZero();
        // exec keeps the pid: the process written into cgroup.procs is the one that runs.
        assertThat(Files.readString(a.resolve("cgroup.procs")).trim()).isEqualTo(out);
        assertThat(Files.readString(b.resolve("cgroup.procs")).trim()).isEqualTo(out);
        assertThat(Confinement.joining(List.of(), List.of("true"))).containsExactly("true");
    }

    @Test
    void whereBpfIsRefusedDevicesAreNotIsolatedButMemoryStillIs() throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "memory\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        // A temporary directory is no cgroup: attaching the device program to it fails.
        CgroupV2 cgroups = CgroupV2.open(root, "sluice_n1", ConfinementPolicy.sluiceDefault(), 4);
        assertThat(cgroups.describe())
                .contains("(memory; memory, cpuset, devices)")
                .contains("; devices are not isolated: device isolation needs bpf(2)");
        Path dir = cgroups.create(new JobLimits(
                        1, 1 << 20, -1, 0, List.of(), List.of(new DeviceFile("/dev/nvidia0", 'c', 195, 0))))
                .get(0);
        assertThat(Files.readString(dir.resolve("memory.max"))).isEqualTo("1048576");
    }

    @Test
    void aStepIsADirectoryUnderItsJobsWithoutControllersOfItsOwn() throws Exception {
        CgroupV2 cgroups = fakeCgroup2();
        Path job = cgroups.create(limits(9, 10, 1, List.of())).get(0);
        assertThat(cgroups.createStep(9, Confinement.stepName(0), List.of())).containsExactly(job.resolve("step_0"));
        assertThat(job.resolve("step_0")).isEmptyDirectory();
        assertThat(job.resolve("cgroup.subtree_control"))
                .as("the job's memory and CPUs hold its steps")
                .doesNotExist();
        assertThat(cgroups.existing(9)).containsExactly(job);
        cgroups.removeStep(9, "step_0");
        assertThat(job.resolve("step_0")).doesNotExist();
        assertThat(job).isDirectory();
        cgroups.removeStep(9, "step_0");
    }

    @Test
    void aJobsStepsGoBeforeTheJob() throws Exception {
        CgroupV2 cgroups = fakeCgroup2();
        Path job = cgroups.create(limits(10, 0, 0, List.of())).get(0);
        Files.delete(job.resolve("memory.max"));
        cgroups.createStep(10, Confinement.BATCH_STEP, List.of());
        cgroups.createStep(10, "step_3", List.of());
        cgroups.remove(10);
        assertThat(job).doesNotExist();
    }
}
