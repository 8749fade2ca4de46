package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Device isolation on cgroup v2 through the node daemon: cgroup.conf names
 * {@code CgroupPlugin=cgroup/v2} at the cgroup2 mount of a hybrid host
 * ({@code /sys/fs/cgroup/unified}, no controllers delegated: devices need none, they are an
 * eBPF program on the job's and each step's cgroup). A {@code --gres=gpu:1} job (its script in
 * {@code job_N/step_batch}) and its step (in {@code job_N/step_0}) open their GPU and not the
 * other; the job's cgroup is gone after it. Needs root and that mount; skipped elsewhere.
 */
class TestConfinementV2EndToEnd {
    private static final Path UNIFIED = Path.of("/sys/fs/cgroup/unified");

    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Path gpus;

    @BeforeAll
    static void up() throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        assumeTrue(new String(id.getInputStream().readAllBytes()).strip().equals("0"), "needs root (cgroups, mknod)");
        assumeTrue(
                Files.readString(Path.of("/proc/self/mounts")).contains(" " + UNIFIED + " cgroup2 ")
                        && Files.isWritable(UNIFIED.resolve("cgroup.subtree_control")),
                "no writable cgroup2 at " + UNIFIED);
        cluster = new ClusterProcesses(stateDir, 1, 2, 1, 2, 0);
        gpus = cluster.layout().fakeGpuDir("node1");
        TestConfinementEndToEnd.mknodGpus(gpus);
        cluster.editSlurmConf(conf -> conf.replace("TaskPlugin=task/none\n", "TaskPlugin=task/cgroup\n"));
        Files.writeString(
                cluster.layout().etc().resolve("cgroup.conf"),
                "CgroupPlugin=cgroup/v2\nCgroupMountpoint=" + UNIFIED + "\nConstrainDevices=yes\n");
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String logs() {
        try {
            return cluster.logs();
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    @Test
    void aGpuJobAndItsStepOpenOnlyTheirGpu() throws Exception {
        String tryGpus = "for g in 0 1; do (: > " + gpus + "/gpu$g) 2>&1 && echo \"$1 gpu$g ok\"; done; true";
        Path script = Files.createTempFile(cluster.workDir(), "job", ".sh");
        Files.writeString(
                script,
                "#!/bin/sh\necho \"visible=$CUDA_VISIBLE_DEVICES\"\n"
                        + "try() { " + tryGpus + "; }\n"
                        + "try batch\n"
                        + "grep '^0::' /proc/self/cgroup | sed 's/^/batch /'\n"
                        + "srun sh -c '" + tryGpus.replace("$1", "step")
                        + "; grep \"^0::\" /proc/self/cgroup | sed \"s/^/step /\"'\n");
        ClusterProcesses.Result r = cluster.command("sbatch", "--gres=gpu:1", "-n1", script.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("Submitted batch job (\\d+)\n").matcher(r.out());
        assertThat(m.matches()).as(r.out()).isTrue();
        int id = Integer.parseInt(m.group(1));
        Path outFile = cluster.workDir().resolve("slurm-" + id + ".out");
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(cluster.command("scontrol", "show", "job", Integer.toString(id))
                                .out())
                        .as(TestConfinementV2EndToEnd::logs)
                        .contains("JobState=COMPLETED"));
        String out = Files.readString(outFile);
        Matcher visible = Pattern.compile("visible=(\\d)\n").matcher(out);
        assertThat(visible.find()).as(out).isTrue();
        int mine = Integer.parseInt(visible.group(1));
        int other = 1 - mine;
        assertThat(out)
                .contains("batch gpu" + mine + " ok")
                .contains("step gpu" + mine + " ok")
                .contains(gpus + "/gpu" + other + ": Operation not permitted")
                .doesNotContain("gpu" + other + " ok")
                .contains("batch 0::/" + parent() + "/job_" + id + "/step_batch\n")
                .contains("step 0::/" + parent() + "/job_" + id + "/step_0\n");
        assertThat(cluster.logs())
                .containsOnlyOnce("cgroup v2 at " + UNIFIED + ": jobs are confined in " + parent()
                        + "/job_N (devices (eBPF);" + " devices)");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() ->
                        assertThat(UNIFIED.resolve(parent() + "/job_" + id)).doesNotExist());
    }

    /** node1's parent cgroup: its spool directory is the cluster's own (Confinements.parentName). */
    private static String parent() {
        return dev.sluice.noded.confine.Confinements.parentName(
                "node1", stateDir.resolve("spool").resolve("node1").toString());
    }
}
