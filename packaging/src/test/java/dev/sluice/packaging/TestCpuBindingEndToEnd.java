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
 * TaskPlugin=task/affinity on a real node daemon (CPUs=2, ThreadsPerCore=1): two 1-CPU jobs
 * running side by side each see only their own CPU in /proc/self/status Cpus_allowed_list, as
 * Slurm's task/affinity confines a batch script and its steps to the job's allocated CPUs.
 */
class TestCpuBindingEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        cluster.editSlurmConf(conf -> conf.replace("TaskPlugin=task/none\n", "TaskPlugin=task/affinity\n"));
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int submit(String script) throws Exception {
        Path file = Files.createTempFile(cluster.workDir(), "job", ".sh");
        Files.writeString(file, "#!/bin/sh\n" + script);
        ClusterProcesses.Result r = cluster.command("sbatch", "-n1", "-c1", file.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("Submitted batch job (\\d+)\n").matcher(r.out());
        assertThat(m.matches()).as(r.out()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static String output(int id) throws Exception {
        Path out = cluster.workDir().resolve("slurm-" + id + ".out");
        return Files.exists(out) ? Files.readString(out) : "";
    }

    @Test
    void twoOneCpuJobsRunBoundToDifferentCpus() throws Exception {
        // Each job prints its affinity, its step's, then holds its CPU until released, so both
        // run at once and the second cannot be given the first one's core.
        String script = """
                grep Cpus_allowed_list /proc/self/status
                srun grep Cpus_allowed_list /proc/self/status
                while [ ! -e release ]; do sleep 0.1; done
                """;
        int first = submit(script);
        int second = submit(script);
        Pattern twoLines = Pattern.compile("(Cpus_allowed_list:\\s+(\\d+)\n)\\1");
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> {
                    assertThat(output(first)).as(cluster.logs()).matches(twoLines);
                    assertThat(output(second)).as(cluster.logs()).matches(twoLines);
                });
        Files.writeString(cluster.workDir().resolve("release"), "");

        Matcher a = twoLines.matcher(output(first));
        Matcher b = twoLines.matcher(output(second));
        assertThat(a.matches() && b.matches()).isTrue();
        assertThat(Integer.parseInt(a.group(2))).isBetween(0, 1);
        assertThat(Integer.parseInt(b.group(2))).isBetween(0, 1).isNotEqualTo(Integer.parseInt(a.group(2)));
        for (int id : new int[] {first, second}) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(300))
                    .untilAsserted(() -> assertThat(cluster.command("scontrol", "show", "job", Integer.toString(id))
                                    .out())
                            .contains("JobState=COMPLETED"));
        }
    }
}
