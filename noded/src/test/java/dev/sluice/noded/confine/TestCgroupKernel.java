package dev.sluice.noded.confine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel's side, where this machine lets a test reach it (root, cgroup v1 controllers under
 * /sys/fs/cgroup, a cgroup2 at /sys/fs/cgroup/unified or /sys/fs/cgroup): two device nodes made
 * with mknod stand in for GPUs; the job's cgroup refuses the one it was not granted and leaves
 * the other open, holds its memory limit, reports an OOM kill, and is gone after removal.
 */
class TestCgroupKernel {
    private static final Path MOUNT = Path.of("/sys/fs/cgroup");

    @TempDir
    Path dir;

    private final String parent = "sluice_test" + ProcessHandle.current().pid();
    private final List<Path> parents = new ArrayList<>();

    private static String mounts() throws IOException {
        return Files.readString(Path.of("/proc/self/mounts"));
    }

    private static void assumeRoot() throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        assumeTrue(
                new String(id.getInputStream().readAllBytes()).strip().equals("0"),
                "cgroups and mknod need root; this test runs as another user");
    }

    /**
     * Two character devices that are harmless to open: {@code gpu0} (the kernel's /dev/full,
     * 1:7) and {@code gpu1} (/dev/zero, 1:5).
     */
    private List<DeviceFile> fakeGpus() throws Exception {
        for (String[] d : new String[][] {{"gpu0", "7"}, {"gpu1", "5"}}) {
            Process p = new ProcessBuilder("mknod", dir.resolve(d[0]).toString(), "c", "1", d[1])
                    .redirectErrorStream(true)
                    .start();
            assumeTrue(
                    p.waitFor() == 0,
                    "mknod is refused here: " + new String(p.getInputStream().readAllBytes()));
        }
        return List.of(
                DeviceFile.stat(dir.resolve("gpu0").toString()).orElseThrow(),
                DeviceFile.stat(dir.resolve("gpu1").toString()).orElseThrow());
    }

    private String runIn(List<Path> cgroups, String script) throws Exception {
        Process p = new ProcessBuilder(Confinement.joining(cgroups, List.of("/bin/sh", "-c", script)))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        return out;
    }

    private static final String TRY_BOTH =
            "(: > gpu0) && echo gpu0 ok; (: > gpu1) && echo gpu1 ok; cat /proc/self/cgroup";

    @AfterEach
    void removeParents() throws IOException {
        for (Path p : parents) {
            // What a failed assertion left behind goes too.
            CgroupFiles.killAndRemoveJob(
                    0, List.of(p.resolve("job_1"), p.resolve("job_2"), p.resolve("job_3"), p.resolve("job_4")));
            Files.deleteIfExists(p);
        }
    }

    @Test
    void cgroupV1DeniesTheDeviceNotGrantedAndHoldsTheMemoryLimit() throws Exception {
        assumeRoot();
        assumeTrue(
                Confinements.detect(mounts(), MOUNT) == Confinements.Version.V1
                        && Files.isWritable(MOUNT.resolve("devices/cgroup.procs")),
                "no writable cgroup v1 devices controller at /sys/fs/cgroup");
        List<DeviceFile> gpus = fakeGpus();
        CgroupV1 v1 = CgroupV1.open(MOUNT, parent, ConfinementPolicy.sluiceDefault(), 1);
        for (String c : List.of("memory", "cpuset", "devices")) {
            parents.add(MOUNT.resolve(c).resolve(parent));
        }
        List<Path> cgroups = v1.create(new JobLimits(1, 64L << 20, 0, 1, List.of(), List.of(gpus.get(0))));
        assertThat(Files.readString(cgroups.get(0).resolve("memory.limit_in_bytes"))
                        .strip())
                .isEqualTo(Long.toString(64L << 20));

        String out = runIn(cgroups, TRY_BOTH);
        assertThat(out).contains("gpu0: Operation not permitted").doesNotContain("gpu0 ok");
        assertThat(out).contains("gpu1 ok");
        assertThat(out).contains("memory:/" + parent + "/job_1").contains("devices:/" + parent + "/job_1");

        // A job over its limit is killed by the kernel, and its cgroup says so.
        runIn(cgroups, "exec timeout 60 tail /dev/zero");
        assertThat(v1.oomKilled(1)).isTrue();

        // A daemon that exits while a job runs leaves the parent to the next one.
        v1.removeParentIfEmpty();
        parents.forEach(p -> assertThat(p).isDirectory());
        v1.remove(1);
        cgroups.forEach(c -> assertThat(c).doesNotExist());
        v1.removeParentIfEmpty();
        parents.forEach(p -> assertThat(p).doesNotExist());
    }

    @Test
    void cgroupV2DeniesTheDeviceNotGrantedWithAnEbpfProgram() throws Exception {
        assumeRoot();
        String mounts = mounts();
        Path unified = Confinements.detect(mounts, MOUNT) == Confinements.Version.V2 ? MOUNT : MOUNT.resolve("unified");
        assumeTrue(
                Confinements.detect(mounts, unified) == Confinements.Version.V2
                        && Files.isWritable(unified.resolve("cgroup.subtree_control")),
                "no writable cgroup2 at /sys/fs/cgroup or /sys/fs/cgroup/unified");
        List<DeviceFile> gpus = fakeGpus();
        ConfinementPolicy devicesOnly = new ConfinementPolicy(
                "cgroup/v2", unified.toString(), false, false, false, true, 100, 0, 0, 100, 100, List.of());
        CgroupV2 v2 = CgroupV2.open(unified, parent, devicesOnly, 1);
        parents.add(unified.resolve(parent));
        List<Path> cgroups = v2.create(new JobLimits(2, 0, -1, 0, List.of(), List.of(gpus.get(1))));

        String out = runIn(cgroups, TRY_BOTH);
        assertThat(out).contains("gpu1: Operation not permitted").doesNotContain("gpu1 ok");
        assertThat(out).contains("gpu0 ok");
        assertThat(out).contains("0::/" + parent + "/job_2");

        v2.removeParentIfEmpty();
        assertThat(unified.resolve(parent)).isDirectory();
        v2.remove(2);
        assertThat(cgroups.get(0)).doesNotExist();
        v2.removeParentIfEmpty();
        assertThat(unified.resolve(parent)).doesNotExist();
    }

    @Test
    void cgroupV1StepsGetOnlyTheirOwnDevices() throws Exception {
        assumeRoot();
        assumeTrue(
                Confinements.detect(mounts(), MOUNT) == Confinements.Version.V1
                        && Files.isWritable(MOUNT.resolve("devices/cgroup.procs")),
                "no writable cgroup v1 devices controller at /sys/fs/cgroup");
        List<DeviceFile> gpus = fakeGpus();
        CgroupV1 v1 = CgroupV1.open(MOUNT, parent, ConfinementPolicy.sluiceDefault(), 1);
        for (String c : List.of("memory", "cpuset", "devices")) {
            parents.add(MOUNT.resolve(c).resolve(parent));
        }
        List<Path> job = v1.create(new JobLimits(3, 64L << 20, -1, 0, List.of(), List.of()));
        List<Path> step0 = v1.createStep(3, "step_0", List.of(gpus.get(1)));
        List<Path> step1 = v1.createStep(3, "step_1", List.of(gpus.get(0)));

        String out = runIn(step0, TRY_BOTH);
        assertThat(out).contains("gpu0 ok").contains("gpu1: Operation not permitted");
        assertThat(out)
                .contains("memory:/" + parent + "/job_3\n")
                .contains("cpuset:/" + parent + "/job_3/step_0\n")
                .contains("devices:/" + parent + "/job_3/step_0\n");
        assertThat(runIn(step1, TRY_BOTH)).contains("gpu1 ok").contains("gpu0: Operation not permitted");
        assertThat(runIn(job, TRY_BOTH)).as("the job holds both").contains("gpu0 ok", "gpu1 ok");

        v1.removeStep(3, "step_0");
        step0.subList(1, 3).forEach(c -> assertThat(c).doesNotExist());
        job.forEach(c -> assertThat(c).isDirectory());
        // A process left in a step goes with its job.
        runIn(step1, "sleep 60 >/dev/null 2>&1 &");
        v1.remove(3);
        job.forEach(c -> assertThat(c).doesNotExist());
    }

    @Test
    void cgroupV2StepsAddTheirOwnDeviceProgramToTheJobs() throws Exception {
        assumeRoot();
        String mounts = mounts();
        Path unified = Confinements.detect(mounts, MOUNT) == Confinements.Version.V2 ? MOUNT : MOUNT.resolve("unified");
        assumeTrue(
                Confinements.detect(mounts, unified) == Confinements.Version.V2
                        && Files.isWritable(unified.resolve("cgroup.subtree_control")),
                "no writable cgroup2 at /sys/fs/cgroup or /sys/fs/cgroup/unified");
        List<DeviceFile> gpus = fakeGpus();
        ConfinementPolicy devicesOnly = new ConfinementPolicy(
                "cgroup/v2", unified.toString(), false, false, false, true, 100, 0, 0, 100, 100, List.of());
        CgroupV2 v2 = CgroupV2.open(unified, parent, devicesOnly, 1);
        parents.add(unified.resolve(parent));
        List<Path> job = v2.create(new JobLimits(4, 0, -1, 0, List.of(), List.of(gpus.get(0))));
        List<Path> step = v2.createStep(4, "step_0", List.of(gpus.get(1)));

        String out = runIn(step, TRY_BOTH);
        assertThat(out)
                .as("the job's program still applies under the step's")
                .contains("gpu0: Operation not permitted")
                .contains("gpu1: Operation not permitted")
                .contains("0::/" + parent + "/job_4/step_0\n");
        assertThat(runIn(job, TRY_BOTH)).contains("gpu1 ok").doesNotContain("gpu0 ok");

        runIn(step, "sleep 60 >/dev/null 2>&1 &");
        v2.remove(4);
        assertThat(job.get(0)).doesNotExist();
    }
}
