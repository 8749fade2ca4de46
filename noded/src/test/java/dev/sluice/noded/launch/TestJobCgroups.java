package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cgroup v2 confinement against a fake cgroup tree in a temporary directory: the development
 * machines mount a tmpfs at /sys/fs/cgroup (cgroup v1 controllers, an empty cgroup2 at
 * /sys/fs/cgroup/unified), so the kernel's side cannot be exercised here.
 */
class TestJobCgroups {
    @TempDir
    Path root;

    private JobCgroups fakeCgroup2(int cpus) throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        return JobCgroups.open(root, cpus).orElseThrow();
    }

    @Test
    void aJobGetsItsMemoryLimitAndTheLowestFreeCpus() throws Exception {
        JobCgroups cgroups = fakeCgroup2(4);
        assertThat(root.resolve("sluice")).isDirectory();
        Path first = cgroups.create(5, 100, 2, List.of());
        assertThat(first).isEqualTo(root.resolve("sluice/job_5"));
        assertThat(Files.readString(first.resolve("memory.max"))).isEqualTo("104857600");
        assertThat(Files.readString(first.resolve("cpuset.cpus"))).isEqualTo("0-1");
        Path second = cgroups.create(6, 0, 1, List.of());
        assertThat(Files.readString(second.resolve("memory.max"))).isEqualTo("max");
        assertThat(Files.readString(second.resolve("cpuset.cpus"))).isEqualTo("2");
        cgroups.remove(5);
        assertThat(cgroups.pickCpus(2)).containsExactly(0, 1);
    }

    @Test
    void theCpuSetIsTheAllocatedCoresWhenTheLaunchNamesThem() throws Exception {
        JobCgroups cgroups = fakeCgroup2(8);
        Path dir = cgroups.create(11, 0, 2, CpuBinding.cpus(List.of(2), 2));
        assertThat(Files.readString(dir.resolve("cpuset.cpus"))).isEqualTo("4-5");
        // A job without named cores avoids the CPUs the first one holds.
        Path other = cgroups.create(12, 0, 2, List.of());
        assertThat(Files.readString(other.resolve("cpuset.cpus"))).isEqualTo("0-1");
    }

    @Test
    void oomKillInMemoryEventsMeansOutOfMemory() throws Exception {
        JobCgroups cgroups = fakeCgroup2(2);
        Path dir = cgroups.create(7, 10, 1, List.of());
        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\n");
        assertThat(cgroups.oomKilled(7)).isFalse();
        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n");
        assertThat(cgroups.oomKilled(7)).isTrue();
        assertThat(cgroups.oomKilled(8)).as("no cgroup, no OOM").isFalse();
    }

    @Test
    void withoutTheMemoryControllerOrWriteAccessJobsRunUnconfined() throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu io pids\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        assertThat(JobCgroups.open(root, 4)).isEmpty();
        assertThat(JobCgroups.open(root.resolve("absent"), 4)).isEmpty();
    }

    @Test
    void theSupervisorJoinsItsCgroupBeforeItRuns() throws Exception {
        Path dir = fakeCgroup2(1).create(9, 0, 0, List.of());
        Process p = new ProcessBuilder(JobCgroups.joining(dir, List.of("sh", "-c", "echo $$")))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertThat(p.waitFor()).isZero();
        // exec keeps the pid: the process written into cgroup.procs is the one that runs.
        assertThat(Files.readString(dir.resolve("cgroup.procs")).trim()).isEqualTo(out);
    }

    @Test
    void cpuListsUseTheKernelsRanges() {
        assertThat(CpuBinding.cpuList(List.of(0, 2, 3, 6))).isEqualTo("0,2-3,6");
        assertThat(CpuBinding.cpuList(List.of())).isEmpty();
    }
}
