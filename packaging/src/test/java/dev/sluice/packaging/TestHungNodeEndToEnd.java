package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guarantee: a node that accepts connections but never answers (here a node daemon frozen with
 * SIGSTOP: the kernel still completes its TCP handshakes) delays only the work sent to it.
 * Jobs for other nodes start and finish as usual, and queries keep answering.
 */
class TestHungNodeEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 2, 2, 1);
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            signal(cluster.nodeProcess(1), "CONT");
            cluster.close();
        }
    }

    private static void signal(Process p, String sig) throws Exception {
        new ProcessBuilder("kill", "-s", sig, Long.toString(p.pid())).start().waitFor();
    }

    private static int submit(String... args) throws Exception {
        ClusterProcesses.Result r = cluster.command("sbatch", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        return Integer.parseInt(r.out().replaceAll("\\D", ""));
    }

    private static String state(int id) throws Exception {
        return cluster.command("squeue", "-h", "-t", "all", "-j", Integer.toString(id), "-o", "%T")
                .out()
                .strip();
    }

    @Test
    void aFrozenNodeDelaysOnlyItsOwnJobs() throws Exception {
        signal(cluster.nodeProcess(1), "STOP");
        int stuck = submit("-w", "node1", "--wrap", "echo never-yet");
        int healthy = submit("-w", "node2", "--wrap", "echo on-node2");
        // The launch to node1 waits out its deadline five times (10 s each, with backoff: about a
        // minute) before giving up; a controller that waited on it would hold node2's job as long.
        await().atMost(Duration.ofSeconds(25))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Files.exists(cluster.workDir().resolve("slurm-" + healthy + ".out"))
                        && Files.readString(cluster.workDir().resolve("slurm-" + healthy + ".out"))
                                .equals("on-node2\n"));
        ClusterProcesses.Result sinfo = cluster.command("sinfo", "-h", "-o", "%P");
        assertThat(sinfo.exitCode()).isZero();
        assertThat(state(stuck)).isIn("RUNNING", "PENDING", "CONFIGURING");

        signal(cluster.nodeProcess(1), "CONT");
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> Files.exists(cluster.workDir().resolve("slurm-" + stuck + ".out")));
    }
}
