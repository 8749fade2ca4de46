package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch job travels the real path: sbatch → controller (journaled) → scheduler → node
 * daemon → process → output file → COMPLETED, with real daemons as processes on 127.0.0.1.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestBatchJobEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        // Two threads per core, as the seeds' lab nodes: CPUs are handed out in whole cores.
        cluster = new ClusterProcesses(stateDir, 2, 4, 2);
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String jobState(int id) throws Exception {
        ClusterProcesses.Result r = cluster.command("scontrol", "show", "job", Integer.toString(id));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out();
    }

    private static void awaitCompleted(int id) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(jobState(id)).contains("JobState=COMPLETED"));
    }

    @Test
    @Order(1)
    void wrappedCommandRunsAndCompletes() throws Exception {
        ClusterProcesses.Result submit = cluster.command("sbatch", "--wrap", "hostname; echo hi");
        assertThat(submit.err()).isEmpty();
        assertThat(submit.out()).isEqualTo("Submitted batch job 1\n");
        assertThat(submit.exitCode()).isZero();

        awaitCompleted(1);
        String show = jobState(1);
        assertThat(show).startsWith("JobId=1 JobName=wrap\n").contains("ExitCode=0:0");
        Path out = cluster.workDir().resolve("slurm-1.out");
        assertThat(Files.readString(out)).endsWith("hi\n");
    }

    @Test
    @Order(2)
    void sinfoListsThePartitionsAndBothNodes() throws Exception {
        ClusterProcesses.Result r = cluster.command("sinfo");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n");
        assertThat(r.out()).containsPattern("(?m)^all\\*\\s+up\\s+infinite\\s+2\\s+idle node\\[1-2\\]$");
    }

    @Test
    @Order(3)
    void scriptDirectivesNameTheJobAndItsOutput() throws Exception {
        String script =
                "#!/bin/sh\n#SBATCH -J named\n#SBATCH -o out-%j.txt\necho \"name=$SLURM_JOB_NAME id=$SLURM_JOB_ID"
                        + " nodes=$SLURM_JOB_NODELIST n=$SLURM_NNODES dir=$SLURM_SUBMIT_DIR\"\n";
        Files.writeString(cluster.workDir().resolve("job.sh"), script);
        ClusterProcesses.Result submit = cluster.command("sbatch", "job.sh");
        assertThat(submit.out()).isEqualTo("Submitted batch job 2\n");
        awaitCompleted(2);
        assertThat(jobState(2)).contains("JobName=named");
        Path out = cluster.workDir().resolve("out-2.txt");
        assertThat(Files.readString(out)).isEqualTo("name=named id=2 nodes=node1 n=1 dir=" + cluster.workDir() + "\n");
        assertThat(cluster.workDir().resolve("slurm-2.out")).doesNotExist();
    }

    @Test
    @Order(4)
    void squeueShowsARunningJobAndScancelEndsIt() throws Exception {
        ClusterProcesses.Result submit = cluster.command("sbatch", "-J", "sleeper", "--wrap", "sleep 300");
        assertThat(submit.out()).isEqualTo("Submitted batch job 3\n");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(cluster.command("squeue").out())
                        .containsPattern("(?m)^\\s+3\\s+all\\s+sleeper\\s+\\S+\\s+R\\s+\\S+\\s+1 node1$"));
        assertThat(cluster.command("scancel", "3").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(jobState(3)).contains("JobState=CANCELLED"));
    }

    @Test
    @Order(5)
    void anAcknowledgedJobSurvivesKillDashNineOfTheController() throws Exception {
        ClusterProcesses.Result submit = cluster.command("sbatch", "--wrap", "echo survived");
        assertThat(submit.out()).isEqualTo("Submitted batch job 4\n");
        cluster.crashController();
        cluster.startController();
        cluster.awaitNodesUp();
        awaitCompleted(4);
        assertThat(Files.readString(cluster.workDir().resolve("slurm-4.out"))).isEqualTo("survived\n");
        ClusterProcesses.Result next = cluster.command("sbatch", "--wrap", "true");
        assertThat(next.out()).as("job ids are never reused").isEqualTo("Submitted batch job 5\n");
    }

    @Test
    @Order(6)
    void unknownJobIsSlurmsError() throws Exception {
        ClusterProcesses.Result r = cluster.command("scontrol", "show", "job", "999");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("slurm_load_jobs error: Invalid job id specified\n");
    }

    @Test
    @Order(7)
    void gpuJobsAreAllOrNothingAndSeeTheirDevices() throws Exception {
        // The seeds' experiment 1 on real daemons with fake GPUs (3 per node).
        ClusterProcesses.Result a = cluster.command(
                "sbatch", "-J", "team-a", "-N2", "--gres=gpu:2", "--wrap", "echo $CUDA_VISIBLE_DEVICES; sleep 300");
        ClusterProcesses.Result b = cluster.command("sbatch", "-J", "team-b", "-N2", "--gres=gpu:2", "--wrap", "true");
        int first = Integer.parseInt(a.out().replaceAll("\\D", ""));
        int second = Integer.parseInt(b.out().replaceAll("\\D", ""));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(cluster.command("squeue", "-o", "%.6i %.8j %.9T %.14b %R")
                                .out())
                        .contains(String.format("%6d   team-b   PENDING     gres:gpu:2 (Resources)", second))
                        .contains(String.format("%6d   team-a   RUNNING     gres:gpu:2 node[1-2]", first)));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(Files.readString(cluster.workDir().resolve("slurm-" + first + ".out")))
                                .isEqualTo("0,1\n"));
        assertThat(cluster.command("scancel", Integer.toString(first)).exitCode())
                .isZero();
        awaitCompleted(second);
    }

    @Test
    @Order(8)
    void aGpuJobSeesTheDeviceItWasGiven() throws Exception {
        ClusterProcesses.Result r = cluster.command(
                "sbatch", "--gres=gpu:1", "--wrap", "echo gpu=$CUDA_VISIBLE_DEVICES jobgpus=$SLURM_JOB_GPUS");
        int id = Integer.parseInt(r.out().replaceAll("\\D", ""));
        awaitCompleted(id);
        assertThat(Files.readString(cluster.workDir().resolve("slurm-" + id + ".out")))
                .isEqualTo("gpu=0 jobgpus=0\n");
    }

    @Test
    @Order(9)
    void wholeNodeAndSharedJobsHoldWholeCores() throws Exception {
        // The seeds' experiments 2 and 4: AllocTRES cpu=<all> for a whole node, cpu=2 (one core
        // of two threads) for a one-CPU shared job.
        int whole = Integer.parseInt(cluster.command("sbatch", "--exclusive", "--wrap", "sleep 300")
                .out()
                .replaceAll("\\D", ""));
        int shared = Integer.parseInt(
                cluster.command("sbatch", "-n1", "--wrap", "sleep 300").out().replaceAll("\\D", ""));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(jobState(whole)).contains("JobState=RUNNING").contains("TRES=cpu=4,node=1,billing=4");
            assertThat(jobState(shared)).contains("JobState=RUNNING").contains("TRES=cpu=2,node=1,billing=2");
        });
        cluster.command("scancel", Integer.toString(whole), Integer.toString(shared));
    }

    @Test
    @Order(10)
    void gresRequestsSlurmRefusesAreRefused() throws Exception {
        ClusterProcesses.Result mixed = cluster.command("sbatch", "--gres=gpu:1,mps:50", "--wrap", "true");
        assertThat(mixed.exitCode()).isEqualTo(1);
        // Real Slurm 22.05 prints this one line, without "Batch job submission failed:".
        assertThat(mixed.err()).isEqualTo("sbatch: error: Invalid generic resource (gres) specification\n");
        ClusterProcesses.Result tooMany = cluster.command("sbatch", "--gres=gpu:99", "--wrap", "true");
        assertThat(tooMany.err())
                .isEqualTo(
                        "sbatch: error: Batch job submission failed: Requested node configuration is not available\n");
    }
}
