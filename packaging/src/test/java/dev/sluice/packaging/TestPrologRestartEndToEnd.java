package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PrologFlags=Alloc across kill -9 of the controller or of a node daemon (issue 23): a job whose
 * Prolog still runs on one of its nodes shows reason Prolog after the restart too, stops waiting
 * once that node's Prolog is done, and each node's Prolog ran once.
 */
class TestPrologRestartEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Path log;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 2, 2, 1);
        log = stateDir.resolve("prolog.log");
        Path prolog = stateDir.resolve("prolog.sh");
        // node2's Prolog waits for the test (two minutes at most); node1's, on the batch host, does not.
        Files.writeString(
                prolog,
                "#!/bin/sh\necho \"$SLURMD_NODENAME $SLURM_JOB_ID\" >> '" + log + "'\n"
                        + "if [ \"$SLURMD_NODENAME\" = node2 ]; then\n"
                        + "  i=0; while [ ! -e '" + stateDir + "'/release-\"$SLURM_JOB_ID\" ] && [ $i -lt 1200 ]; do"
                        + " sleep 0.1; i=$((i+1)); done\n"
                        + "fi\n");
        prolog.toFile().setExecutable(true);
        cluster.editSlurmConf(conf -> conf + "Prolog=" + prolog + "\nPrologFlags=Alloc\n");
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String show(int id) throws Exception {
        return cluster.command("scontrol", "show", "job", Integer.toString(id)).out();
    }

    /** Submits a two-node job and waits until node2's Prolog holds it (reason Prolog). */
    private static int submitAndAwaitItsProlog() throws Exception {
        ClusterProcesses.Result submitted = cluster.command("sbatch", "-N2", "--wrap", "sleep 300");
        assertThat(submitted.exitCode()).as(submitted.err()).isZero();
        int id = Integer.parseInt(submitted.out().replaceAll("\\D", ""));
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> {
                    assertThat(show(id)).contains("JobState=RUNNING").contains("Reason=Prolog");
                    assertThat(prologsRun(id)).contains("node1 " + id, "node2 " + id);
                });
        return id;
    }

    private static List<String> prologsRun(int id) throws Exception {
        return Files.exists(log)
                ? Files.readAllLines(log).stream()
                        .filter(line -> line.endsWith(" " + id))
                        .toList()
                : List.of();
    }

    /** Lets node2's Prolog end, then the job runs (reason None) with each Prolog run once. */
    private static void releaseAndAwaitTheStart(int id) throws Exception {
        Files.writeString(stateDir.resolve("release-" + id), "");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(
                        () -> assertThat(show(id)).contains("JobState=RUNNING").contains("Reason=None"));
        assertThat(prologsRun(id)).containsExactlyInAnyOrder("node1 " + id, "node2 " + id);

        assertThat(cluster.command("scancel", Integer.toString(id)).exitCode()).isZero();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(show(id)).contains("JobState=CANCELLED"));
    }

    @Test
    void aJobWaitingForItsPrologStillWaitsAfterTheControllerRestartsAndEachPrologRunsOnce() throws Exception {
        int id = submitAndAwaitItsProlog();

        cluster.crashController();
        cluster.startController();
        cluster.awaitNodesUp();
        assertThat(show(id)).contains("JobState=RUNNING").contains("Reason=Prolog");

        releaseAndAwaitTheStart(id);
    }

    @Test
    void aPrologThatOutlivesItsNodeDaemonIsWatchedByTheNextAndToldWhenItEnds() throws Exception {
        int id = submitAndAwaitItsProlog();

        ClusterProcesses.crash(cluster.nodeProcess(2));
        cluster.startNode(2);
        cluster.awaitNodesUp();
        assertThat(show(id)).contains("JobState=RUNNING").contains("Reason=Prolog");

        releaseAndAwaitTheStart(id);
    }
}
