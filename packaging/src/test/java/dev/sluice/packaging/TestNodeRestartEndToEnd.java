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
 * Jobs do not depend on the node daemon that started them: it may stop and start again (an
 * upgrade, a crash) under a running job, which keeps running, is re-adopted, and is reported
 * with its real end.
 */
class TestNodeRestartEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String show(int id) throws Exception {
        ClusterProcesses.Result r = cluster.command("scontrol", "show", "job", Integer.toString(id));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out();
    }

    @Test
    void aJobKeepsRunningAcrossANodeDaemonRestartAndCompletes() throws Exception {
        Path go = cluster.workDir().resolve("go");
        Path started = cluster.workDir().resolve("started");
        // The job waits for the test, so it certainly outlives the daemon's restart.
        ClusterProcesses.Result submit = cluster.command(
                "sbatch", "--wrap", "echo $$ > started; while [ ! -e go ]; do sleep 0.1; done; echo finished $$");
        int id = Integer.parseInt(submit.out().replaceAll("\\D", ""));
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(started));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !Files.readString(started).isBlank());
        long pid = Long.parseLong(Files.readString(started).strip());

        long oldDaemon = cluster.nodeProcess(1).pid();
        cluster.restartNode(1);
        assertThat(ProcessHandle.of(oldDaemon)).isEmpty();
        assertThat(ProcessHandle.of(pid)).as("the job survives its daemon").isPresent();
        // The new daemon has taken the job over (and not merely found it ended) before it may end.
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.logs().contains("job " + id + " re-adopted"));
        assertThat(show(id)).contains("JobState=RUNNING ");

        Files.writeString(go, "");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(show(id)).contains("JobState=COMPLETED "));
        assertThat(show(id)).contains("ExitCode=0:0");
        assertThat(Files.readString(cluster.workDir().resolve("slurm-" + id + ".out")))
                .isEqualTo("finished " + pid + "\n");
    }

    @Test
    void aJobSurvivesItsDaemonsKillMinus9AndIsReadoptedWithinSlurmdTimeout() throws Exception {
        Path go = cluster.workDir().resolve("go3");
        Path started = cluster.workDir().resolve("started3");
        ClusterProcesses.Result submit = cluster.command(
                "sbatch", "--wrap", "echo $$ > started3; while [ ! -e go3 ]; do sleep 0.1; done; exit 7");
        int id = Integer.parseInt(submit.out().replaceAll("\\D", ""));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Files.exists(started) && !Files.readString(started).isBlank());
        long pid = Long.parseLong(Files.readString(started).strip());

        ClusterProcesses.crash(cluster.nodeProcess(1));
        assertThat(ProcessHandle.of(pid))
                .as("the job survives a crash of its daemon")
                .isPresent();
        cluster.startNode(1);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.logs().contains("job " + id + " re-adopted"));
        assertThat(show(id)).contains("JobState=RUNNING ");

        Files.writeString(go, "");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () -> assertThat(show(id)).contains("JobState=FAILED ").contains("ExitCode=7:0"));
    }

    @Test
    void aJobThatEndsWhileTheDaemonIsDownIsReportedWhenItReturns() throws Exception {
        Path go = cluster.workDir().resolve("go2");
        Path started = cluster.workDir().resolve("started2");
        ClusterProcesses.Result submit =
                cluster.command("sbatch", "--wrap", "touch started2; while [ ! -e go2 ]; do sleep 0.1; done; exit 4");
        int id = Integer.parseInt(submit.out().replaceAll("\\D", ""));
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(started));
        cluster.stopNode(1);
        Files.writeString(go, "");
        // The supervisor's facts are lines of one file (JobFacts): the exit status is one of them.
        Path facts = stateDir.resolve("spool/node1")
                .resolve(String.format("job%05d", id))
                .resolve("facts");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Files.exists(facts) && Files.readString(facts).contains("\nexit=4\n"));
        cluster.startNode(1);
        cluster.awaitNodesUp();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () -> assertThat(show(id)).contains("JobState=FAILED ").contains("ExitCode=4:0"));
    }
}
