package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --signal} and the step listings with real daemons: a batch script that traps USR1 gets
 * it (with {@code B:}) a few seconds before its one-minute limit and ends on its own; without
 * {@code B:} a step's task gets it and the batch shell does not (an untrapped USR1 would kill
 * it); a running step shows in {@code squeue -s} and {@code scontrol show step}.
 */
class TestWarnSignalEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 4, 1);
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int submit(String script, String... args) throws Exception {
        Path file = Files.createTempFile(cluster.workDir(), "job", ".sh");
        Files.writeString(file, "#!/bin/sh\n" + script);
        List<String> argv = new ArrayList<>(List.of(args));
        argv.add(file.toString());
        ClusterProcesses.Result r = cluster.command("sbatch", argv.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("Submitted batch job (\\d+)\n").matcher(r.out());
        assertThat(m.matches()).as(r.out()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static String show(int id) throws Exception {
        return cluster.command("scontrol", "show", "job", Integer.toString(id)).out();
    }

    private static String awaitEnd(int id, Duration within) {
        await().atMost(within)
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(
                        () -> assertThat(show(id)).containsPattern("JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT) "));
        try {
            return show(id);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theBatchShellTrapsItsSignalBeforeTheLimit() throws Exception {
        // -t 1 is 60 s; USR1 is due 4 s after the start.
        int id = submit("""
                trap 'echo "caught USR1" > usr1-$SLURM_JOB_ID.marker; exit 0' USR1
                sleep 120 &
                wait
                """, "-t", "1", "--signal=B:USR1@56");
        Path marker = cluster.workDir().resolve("usr1-" + id + ".marker");
        await().atMost(Duration.ofSeconds(40)).until(() -> Files.exists(marker));
        assertThat(Files.readString(marker)).isEqualTo("caught USR1\n");
        assertThat(awaitEnd(id, Duration.ofSeconds(30)))
                .contains("JobState=COMPLETED ")
                .contains("ExitCode=0:0");
    }

    @Test
    void withoutBTheStepIsSignalledAndTheShellIsNot() throws Exception {
        int id = submit("""
                srun sh -c 'trap "echo step-usr1 > step-$SLURM_JOB_ID.marker; exit 0" USR1; sleep 120 & wait'
                echo "shell still here"
                """, "-t", "1", "--signal=USR1@56");
        Path marker = cluster.workDir().resolve("step-" + id + ".marker");
        await().atMost(Duration.ofSeconds(40)).until(() -> Files.exists(marker));
        String end = awaitEnd(id, Duration.ofSeconds(30));
        assertThat(end).contains("JobState=COMPLETED ");
        assertThat(Files.readString(cluster.workDir().resolve("slurm-" + id + ".out")))
                .contains("shell still here");
    }

    @Test
    void aRunningStepIsListed() throws Exception {
        int id = submit("srun -J napper sleep 60\n", "-t", "5");
        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(
                        () -> assertThat(cluster.command("squeue", "-s", "-h").out())
                                .contains(" " + id + ".0 ")
                                .contains(" " + id + ".batch "));
        ClusterProcesses.Result steps = cluster.command("squeue", "--steps=" + id + ".0");
        assertThat(steps.out()).startsWith("         STEPID     NAME PARTITION     USER      TIME NODELIST\n");
        assertThat(steps.out()).containsPattern("\\s+" + id + "\\.0\\s+napper\\s+\\S+\\s+\\S+\\s+\\d+:\\d\\d \\S+\n");
        ClusterProcesses.Result step = cluster.command("scontrol", "show", "step", id + ".0");
        assertThat(step.exitCode()).as(step.err()).isZero();
        assertThat(step.out())
                .startsWith("StepId=" + id + ".0 UserId=")
                .contains("State=RUNNING")
                .contains("Nodes=1 CPUs=1 Tasks=1 Name=napper Network=(null)")
                .contains("TRES=cpu=1,")
                .containsPattern("SrunHost:Pid=\\S+:\\d+");
        ClusterProcesses.Result missing = cluster.command("scontrol", "show", "step", id + ".7");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.out()).isEqualTo("Job step " + id + ".7 not found\n");
        cluster.command("scancel", Integer.toString(id));
        awaitEnd(id, Duration.ofSeconds(30));
    }
}
