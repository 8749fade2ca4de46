package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
 * {@code scontrol suspend/resume/requeue}, {@code sbatch --test-only} and {@code sbatch -W} with
 * real daemons: a suspended job makes no progress until resumed (and stays suspended across a
 * controller crash and a node daemon restart); a requeued batch job runs again with
 * {@code Restarts=1}. Texts as Slurm 22.05 prints them (state {@code S} in squeue).
 */
class TestSuspendRequeueEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 4, 1);
        // A requeued job waits cred_expire + 1 seconds (120 by default) before it runs again.
        Files.writeString(
                cluster.layout().slurmConfPath(), "AuthInfo=cred_expire=5\n", java.nio.file.StandardOpenOption.APPEND);
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int submit(String... args) throws Exception {
        ClusterProcesses.Result r = cluster.command("sbatch", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("Submitted batch job (\\d+)\n").matcher(r.out());
        assertThat(m.matches()).as(r.out()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static String show(int id) throws Exception {
        ClusterProcesses.Result r = cluster.command("scontrol", "show", "job", Integer.toString(id));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out();
    }

    private static void awaitState(int id, String state) {
        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(show(id)).contains("JobState=" + state + " "));
    }

    private static void scontrol(String... args) throws Exception {
        ClusterProcesses.Result r = cluster.command("scontrol", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
    }

    /** The counter the job writes five times a second; 0 before its first write. */
    private static long count(Path file) throws Exception {
        if (!Files.exists(file)) {
            return 0;
        }
        String text = Files.readString(file).trim();
        return text.isEmpty() ? 0 : Long.parseLong(text);
    }

    @Test
    void suspendStopsTheJobAndResumeContinuesIt() throws Exception {
        Path counter = cluster.workDir().resolve("counter.txt");
        int id = submit(
                "--wrap",
                "i=0; while true; do i=$((i+1)); echo $i > " + counter + ".tmp; mv " + counter + ".tmp " + counter
                        + "; sleep 0.2; done");
        awaitState(id, "RUNNING");
        await().atMost(Duration.ofSeconds(20)).until(() -> count(counter) >= 3);

        scontrol("suspend", Integer.toString(id));
        assertThat(show(id)).contains("JobState=SUSPENDED ");
        assertThat(cluster.command("squeue", "-h", "-o", "%i %t").out()).isEqualTo(id + " S\n");
        // Stopped: once SIGSTOP has landed the counter stands still.
        long[] last = {count(counter)};
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    long now = count(counter);
                    boolean still = now == last[0];
                    last[0] = now;
                    return still;
                });
        long stoppedAt = count(counter);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> count(counter) == stoppedAt);

        // Journaled: a controller that crashes and restarts still has it suspended; a node daemon
        // restarted meanwhile adopts the stopped job again (its spool remembers the suspension).
        cluster.crashController();
        cluster.restartNode(1);
        cluster.startController();
        cluster.awaitNodesUp();
        awaitState(id, "SUSPENDED");
        assertThat(count(counter)).isEqualTo(stoppedAt);
        // Slurm 22.05's answer to suspend/resume of an id it does not know.
        ClusterProcesses.Result again = cluster.command("scontrol", "resume", "999999");
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).isEqualTo("Unexpected message received for job 999999\n");

        scontrol("resume", Integer.toString(id));
        assertThat(show(id)).contains("JobState=RUNNING ");
        await().atMost(Duration.ofSeconds(10)).until(() -> count(counter) > stoppedAt + 2);
        ClusterProcesses.Result notSuspended = cluster.command("scontrol", "resume", Integer.toString(id));
        assertThat(notSuspended.exitCode()).isEqualTo(1);
        assertThat(notSuspended.err()).isEqualTo("Job is not suspended for job " + id + "\n");

        assertThat(cluster.command("scancel", Integer.toString(id)).exitCode()).isZero();
        awaitState(id, "CANCELLED");
    }

    @Test
    void requeueRunsTheBatchJobAgain() throws Exception {
        Path runs = cluster.workDir().resolve("runs.txt");
        int id = submit("--wrap", "echo run >> " + runs + "; sleep 600");
        awaitState(id, "RUNNING");
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(runs));

        scontrol("requeue", Integer.toString(id));
        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(Files.readAllLines(runs)).containsExactly("run", "run"));
        awaitState(id, "RUNNING");
        assertThat(show(id)).contains("Restarts=1 ");

        int noRequeue = submit("--no-requeue", "--wrap", "sleep 600");
        awaitState(noRequeue, "RUNNING");
        ClusterProcesses.Result refused = cluster.command("scontrol", "requeue", Integer.toString(noRequeue));
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).isEqualTo("Requested operation is presently disabled for job " + noRequeue + "\n");

        assertThat(cluster.command("scancel", Integer.toString(id), Integer.toString(noRequeue))
                        .exitCode())
                .isZero();
        awaitState(id, "CANCELLED");
    }

    @Test
    void testOnlyAndWait() throws Exception {
        ClusterProcesses.Result estimate = cluster.command("sbatch", "--test-only", "-n2", "--wrap", "true");
        assertThat(estimate.exitCode()).as(estimate.err()).isZero();
        assertThat(estimate.out()).isEmpty();
        assertThat(estimate.err())
                .matches("sbatch: Job \\d+ to start at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d using 2 processors"
                        + " on nodes node1 in partition \\S+\n");
        ClusterProcesses.Result impossible = cluster.command("sbatch", "--test-only", "-N3", "--wrap", "true");
        assertThat(impossible.exitCode()).isEqualTo(1);
        assertThat(impossible.err()).isEqualTo("allocation failure: Requested node configuration is not available\n");

        ClusterProcesses.Result waited = cluster.command("sbatch", "-W", "--wrap", "exit 3");
        assertThat(waited.exitCode()).as(waited.err()).isEqualTo(3);
        assertThat(waited.out()).matches("Submitted batch job \\d+\n");
    }
}
