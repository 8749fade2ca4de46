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
 * slurm.conf's Prolog and Epilog on a real node daemon: they run as root around the job with
 * the job's facts; a failing Prolog drains the node and requeues the job held, and after the
 * operator resumes the node and releases the job it runs.
 */
class TestPrologEpilogEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Path log;
    private static Path failMarker;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        log = stateDir.resolve("scripts.log");
        failMarker = stateDir.resolve("fail-prolog");
        Path prolog = stateDir.resolve("prolog.sh");
        Files.writeString(
                prolog,
                "#!/bin/sh\n[ -e '" + failMarker + "' ] && exit 1\n"
                        + "echo \"$SLURM_SCRIPT_CONTEXT $SLURM_JOB_ID $SLURM_JOB_USER $(id -u) ${SECRET:-clean}\" >> '"
                        + log + "'\n");
        Path epilog = stateDir.resolve("epilog.sh");
        Files.writeString(epilog, "#!/bin/sh\necho \"$SLURM_SCRIPT_CONTEXT $SLURM_JOB_ID\" >> '" + log + "'\n");
        prolog.toFile().setExecutable(true);
        epilog.toFile().setExecutable(true);
        cluster.editSlurmConf(conf -> conf + "Prolog=" + prolog + "\nEpilog=" + epilog + "\n");
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
        return Integer.parseInt(r.out().replaceAll("\\D", ""));
    }

    private static String show(int id) throws Exception {
        return cluster.command("scontrol", "show", "job", Integer.toString(id)).out();
    }

    @Test
    void prologAndEpilogRunAroundTheJobAndAFailedPrologDrainsTheNode() throws Exception {
        int ok = submit("--export=ALL,SECRET=leaked", "--wrap", "echo job");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(show(ok)).contains("JobState=COMPLETED"));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(Files.readAllLines(log))
                        .containsExactly("prolog_slurmd " + ok + " root 0 clean", "epilog_slurmd " + ok));
        assertThat(cluster.workDir().resolve("slurm-" + ok + ".out")).hasContent("job");

        Files.writeString(failMarker, "");
        int held = submit("--wrap", "echo second");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(show(held))
                        .contains("JobState=PENDING")
                        // Slurm's hold after a failed launch (recorded with PrologFlags=Alloc, compat 263)
                        .contains("Reason=launch_failed_requeued_held")
                        .contains("Restarts=1"));
        assertThat(cluster.command("sinfo", "-R", "-h", "-o", "%E|%N").out()).isEqualTo("Prolog error|node1\n");
        assertThat(cluster.workDir().resolve("slurm-" + held + ".out")).doesNotExist();

        Files.delete(failMarker);
        assertThat(cluster.command("scontrol", "update", "nodename=node1", "state=resume")
                        .exitCode())
                .isZero();
        assertThat(cluster.command("scontrol", "release", Integer.toString(held))
                        .exitCode())
                .isZero();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(show(held)).contains("JobState=COMPLETED"));
        assertThat(cluster.workDir().resolve("slurm-" + held + ".out")).hasContent("second");
    }
}
