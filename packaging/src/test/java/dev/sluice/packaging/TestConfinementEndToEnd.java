package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
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
 * Job confinement on a real node daemon with cgroup v1 (TaskPlugin=task/cgroup, cgroup.conf
 * constraining RAM, cores and devices): the node's two fake GPUs are character devices made
 * with mknod ({@code gpu0} = 1:7 as /dev/full, {@code gpu1} = 1:5 as /dev/zero, both harmless to
 * open). A {@code --gres=gpu:1} job opens its GPU and gets "Operation not permitted" on the
 * other, its {@code --mem} is its cgroup's limit, its script runs in {@code job_N/step_batch} and
 * its {@code srun} step in {@code job_N/step_0} under the job's memory cgroup; in a
 * {@code --gres=gpu:2} job an {@code srun --gres=gpu:1} step opens only its own GPU; a job without
 * GPUs opens neither; the cgroups are gone once the jobs end. Needs root and writable cgroup v1
 * controllers; skipped elsewhere.
 */
class TestConfinementEndToEnd {
    private static final Path V1 = Path.of("/sys/fs/cgroup");

    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Path gpus;

    static void assumeCgroupV1AsRoot() throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        assumeTrue(new String(id.getInputStream().readAllBytes()).strip().equals("0"), "needs root (cgroups, mknod)");
        String mounts = Files.readString(Path.of("/proc/self/mounts"));
        assumeTrue(
                mounts.contains(" /sys/fs/cgroup/devices cgroup ")
                        && mounts.contains(" /sys/fs/cgroup/memory cgroup ")
                        && Files.isWritable(V1.resolve("devices/cgroup.procs")),
                "no writable cgroup v1 memory and devices controllers at /sys/fs/cgroup");
    }

    /** Replaces the local cluster's plain-file fake GPUs by character devices. */
    static void mknodGpus(Path dir) throws Exception {
        for (String[] d : new String[][] {{"gpu0", "7"}, {"gpu1", "5"}}) {
            Files.deleteIfExists(dir.resolve(d[0]));
            Process p = new ProcessBuilder("mknod", dir.resolve(d[0]).toString(), "c", "1", d[1])
                    .redirectErrorStream(true)
                    .start();
            assumeTrue(
                    p.waitFor() == 0,
                    "mknod refused: " + new String(p.getInputStream().readAllBytes()));
        }
    }

    @BeforeAll
    static void up() throws Exception {
        assumeCgroupV1AsRoot();
        cluster = new ClusterProcesses(stateDir, 1, 2, 1, 2, 0);
        gpus = cluster.layout().fakeGpuDir("node1");
        mknodGpus(gpus);
        cluster.editSlurmConf(conf -> conf.replace("TaskPlugin=task/none\n", "TaskPlugin=task/cgroup\n"));
        Files.writeString(
                cluster.layout().etc().resolve("cgroup.conf"),
                "CgroupPlugin=autodetect\nConstrainRAMSpace=yes\nConstrainCores=yes\nConstrainDevices=yes\n");
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int submit(String script, String... options) throws Exception {
        Path file = Files.createTempFile(cluster.workDir(), "job", ".sh");
        Files.writeString(file, "#!/bin/sh\n" + script);
        String[] args = new String[options.length + 1];
        System.arraycopy(options, 0, args, 0, options.length);
        args[options.length] = file.toString();
        ClusterProcesses.Result r = cluster.command("sbatch", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("Submitted batch job (\\d+)\n").matcher(r.out());
        assertThat(m.matches()).as(r.out()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static String completedOutput(int id) throws Exception {
        Path out = cluster.workDir().resolve("slurm-" + id + ".out");
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(cluster.command("scontrol", "show", "job", Integer.toString(id))
                                .out())
                        .as(() -> {
                            try {
                                return (Files.exists(out) ? Files.readString(out) : "") + cluster.logs();
                            } catch (IOException e) {
                                return e.toString();
                            }
                        })
                        .contains("JobState=COMPLETED"));
        return Files.readString(out);
    }

    private static String tryGpus(String who) {
        return "for g in 0 1; do (: > " + gpus + "/gpu$g) 2>&1 && echo \"" + who + " gpu$g ok\"; done; true\n";
    }

    private static void awaitCgroupsGone(int id) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    for (String c : new String[] {"memory", "cpuset", "devices"}) {
                        assertThat(V1.resolve(c).resolve(parent() + "/job_" + id))
                                .doesNotExist();
                    }
                });
    }

    @Test
    void aGpuJobOpensOnlyItsGpuAndItsStepRunsInItsCgroup() throws Exception {
        int id = submit(
                "echo \"visible=$CUDA_VISIBLE_DEVICES\"\n"
                        + tryGpus("batch")
                        + "echo \"limit=$(cat /sys/fs/cgroup/memory/" + parent()
                        + "/job_$SLURM_JOB_ID/memory.limit_in_bytes)\"\n"
                        + "sed 's/^/batch /' /proc/self/cgroup\n"
                        + "srun sh -c 'sed \"s/^/step /\" /proc/self/cgroup; "
                        + tryGpus("step").replace("'", "'\\''")
                        + "'\n",
                "--gres=gpu:1",
                "--mem=500",
                "-n1");
        String out = completedOutput(id);
        Matcher visible = Pattern.compile("visible=(\\d)\n").matcher(out);
        assertThat(visible.find()).as(out).isTrue();
        int mine = Integer.parseInt(visible.group(1));
        int other = 1 - mine;
        String job = "/" + parent() + "/job_" + id;
        assertThat(out)
                .contains("batch gpu" + mine + " ok")
                .contains("step gpu" + mine + " ok")
                .contains(gpus + "/gpu" + other + ": Operation not permitted")
                .doesNotContain("gpu" + other + " ok")
                .contains("limit=" + 500L * 1024 * 1024 + "\n")
                .containsPattern("batch \\d+:memory:" + job + "\n")
                .containsPattern("batch \\d+:cpuset:" + job + "/step_batch\n")
                .containsPattern("batch \\d+:devices:" + job + "/step_batch\n")
                .containsPattern("step \\d+:memory:" + job + "\n")
                .containsPattern("step \\d+:cpuset:" + job + "/step_0\n")
                .containsPattern("step \\d+:devices:" + job + "/step_0\n");
        awaitCgroupsGone(id);
    }

    @Test
    void aStepOpensOnlyItsOwnGpusOfItsJobs() throws Exception {
        int id = submit(
                "echo \"job visible=$CUDA_VISIBLE_DEVICES\"\n"
                        + "srun --gres=gpu:1 -n1 sh -c 'echo \"step visible=$CUDA_VISIBLE_DEVICES\";"
                        + " sed \"s/^/step /\" /proc/self/cgroup; "
                        + tryGpus("step").replace("'", "'\\''")
                        + "'\n"
                        + tryGpus("batch"),
                "--gres=gpu:2",
                "-n1");
        String out = completedOutput(id);
        Matcher visible = Pattern.compile("step visible=(\\d)\n").matcher(out);
        assertThat(visible.find()).as(out).isTrue();
        int mine = Integer.parseInt(visible.group(1));
        int other = 1 - mine;
        assertThat(out)
                .contains("job visible=0,1\n")
                .contains("step gpu" + mine + " ok")
                .contains(gpus + "/gpu" + other + ": Operation not permitted")
                .doesNotContain("step gpu" + other + " ok")
                .as("the batch script holds both of the job's GPUs")
                .contains("batch gpu0 ok", "batch gpu1 ok")
                .containsPattern("step \\d+:devices:/" + parent() + "/job_" + id + "/step_0\n");
        awaitCgroupsGone(id);
    }

    @Test
    void aJobWithoutGpusOpensNeither() throws Exception {
        int id = submit(tryGpus("batch") + "echo done\n", "-n1");
        String out = completedOutput(id);
        assertThat(out)
                .contains(gpus + "/gpu0: Operation not permitted")
                .contains(gpus + "/gpu1: Operation not permitted")
                .doesNotContain(" ok")
                .endsWith("done\n");
        awaitCgroupsGone(id);
    }

    @Test
    void theDaemonSaysOnceHowJobsAreConfined() throws IOException {
        assertThat(cluster.logs())
                .containsOnlyOnce("cgroup v1 at /sys/fs/cgroup: jobs are confined in <controller>/" + parent()
                        + "/job_N" + " (memory, cpuset, devices; memory, cpuset, devices)");
    }

    /** node1's parent cgroup: its spool directory is the cluster's own (Confinements.parentName). */
    private static String parent() {
        return dev.sluice.noded.confine.Confinements.parentName(
                "node1", stateDir.resolve("spool").resolve("node1").toString());
    }
}
