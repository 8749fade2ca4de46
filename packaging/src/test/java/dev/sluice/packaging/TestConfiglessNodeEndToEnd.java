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
 * A node daemon started with nothing but {@code --conf-server} fetches its configuration from
 * the controller, runs jobs, and when it dies under them the controller notices after
 * SlurmdTimeout: the node is {@code down*}, the job {@code NODE_FAIL}, the {@code --requeue} job
 * pending again
 * (JobRequeue=1, the default). Started once more while the controller is away, it comes up from its cache.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestConfiglessNodeEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Process node;
    private static Path spool;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        // Heartbeats come every 5 s: 10 s of silence is a dead node, and quick to see.
        cluster.editSlurmConf(c -> c.replace("SlurmdTimeout=60", "SlurmdTimeout=10"));
        cluster.startController();
        spool = stateDir.resolve("spool-configless");
        node = startConfigless();
        try {
            cluster.awaitNodesUp();
        } catch (RuntimeException e) {
            throw new AssertionError(cluster.logs(), e);
        }
    }

    private static Process startConfigless() throws Exception {
        return cluster.startConfiglessNode(
                "node1",
                "--conf-server",
                "127.0.0.1:" + cluster.layout().ctldPort(),
                "-N",
                "node1",
                "--spool-dir",
                spool.toString());
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String show(String id) throws Exception {
        return cluster.command("scontrol", "show", "job", id).out();
    }

    private static String submit(String... args) throws Exception {
        ClusterProcesses.Result r = cluster.command("sbatch", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out().replaceAll("\\D", "");
    }

    @Test
    @Order(1)
    void theNodeFetchedAndCachedItsConfigurationAndRunsAJob() throws Exception {
        assertThat(spool.resolve("conf-cache/slurm.conf"))
                .hasContent(Files.readString(cluster.layout().slurmConfPath()));
        assertThat(spool.resolve("conf-cache/gres.conf")).exists();
        String id = submit("--wrap", "echo configless");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(show(id)).contains("JobState=COMPLETED"));
        assertThat(cluster.workDir().resolve("slurm-" + id + ".out")).hasContent("configless");
    }

    @Test
    @Order(2)
    void killedUnderRunningJobsTheNodeGoesDownAndItsJobsFailOrRequeue() throws Exception {
        // JobRequeue=1 is Slurm's default: a batch job is requeued unless it says otherwise.
        String plain = submit("--no-requeue", "--wrap", "sleep 40");
        String requeue = submit("--requeue", "--wrap", "sleep 40");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> {
                    assertThat(show(plain)).contains("JobState=RUNNING");
                    assertThat(show(requeue)).contains("JobState=RUNNING");
                });
        ClusterProcesses.crash(node);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(cluster.command("sinfo", "-n", "node1", "-o", "%N %t")
                                .out())
                        .isEqualTo("NODELIST STATE\nnode1 down*\n"));
        assertThat(show(plain)).contains("JobState=NODE_FAIL");
        assertThat(show(requeue)).contains("JobState=PENDING").contains("Restarts=1");
        assertThat(cluster.command("sinfo", "-R", "-o", "%20E %9u %N").out())
                .containsPattern("(?m)^Not responding\\s+root\\s+node1$");
    }

    @Test
    @Order(3)
    void itRestartsFromItsCacheWhileTheControllerIsAwayAndReturnsToService() throws Exception {
        cluster.crashController();
        node = startConfigless();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(cluster.logs()).contains("starting from the cached configuration"));
        cluster.startController();
        // ReturnToService=1: down only for not responding, it comes back by registering.
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(cluster.command("sinfo", "-n", "node1", "-o", "%N %t")
                                .out())
                        .matches("NODELIST STATE\nnode1 (idle|mix|alloc)\n"));
    }
}
