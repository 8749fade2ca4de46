package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile and unusual input on the real path (issue 28, part 4), with the outcome real Slurm
 * 22.05 had for the same command lines on this machine (2026-12-02): a byte 0xE9 in a script, in
 * {@code --wrap} and in the environment reaches the job's output unchanged, whatever the
 * submitting shell's locale; the rest is refused with Slurm's messages and exit statuses, except a
 * newline in a job name, which Slurm stores and prints raw and Sluice refuses.
 */
class TestHostileInputEndToEnd {
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

    private static final byte E9 = (byte) 0xe9;

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof Byte b) {
                out.write(b);
            } else {
                out.writeBytes(((String) p).getBytes(StandardCharsets.US_ASCII));
            }
        }
        return out.toByteArray();
    }

    /** Reads a job's output once the job has completed (its file is then written and closed). */
    private static byte[] outputOfCompleted(String submitted, Path file) throws Exception {
        for (String line : submitted.strip().split("\n")) {
            String id = line.replace("Submitted batch job ", "");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> assertThat(cluster.command("scontrol", "show", "job", id)
                                    .out())
                            .contains("JobState=COMPLETED"));
        }
        return Files.readAllBytes(file);
    }

    @Test
    void byte0xE9InScriptWrapAndEnvironmentReachesTheJobUnderEitherLocale() throws Exception {
        for (String lang : new String[] {"C", "C.UTF-8"}) {
            String tag = lang.replace('.', '_');
            Files.write(
                    cluster.workDir().resolve("lat-" + tag + ".sh"),
                    bytes("#!/bin/sh\n# caf", E9, "\necho \"v=$V\"\nprintf 'w", E9, "\\n'\n"));
            ClusterProcesses.Result r = cluster.shell(bytes(
                    "export LANG=",
                    lang,
                    "; unset LC_ALL\n",
                    "V='x",
                    E9,
                    "y'; export V\n",
                    "sbatch -o lat-",
                    tag,
                    ".out lat-",
                    tag,
                    ".sh\n",
                    "sbatch -o wrap-",
                    tag,
                    ".out --export=ALL,W='p",
                    (byte) 0xff,
                    "q' --wrap 'echo a",
                    E9,
                    "b; printf \"%s\\n\" \"$W\"'\n"));
            assertThat(r.err()).as(lang).isEmpty();
            assertThat(r.exitCode()).as(lang).isZero();
            // What Slurm 22.05's jobs wrote for the same two submissions.
            assertThat(r.out()).as(lang).matches("Submitted batch job \\d+\nSubmitted batch job \\d+\n");
            assertThat(outputOfCompleted(r.out(), cluster.workDir().resolve("lat-" + tag + ".out")))
                    .as(lang)
                    .containsExactly(bytes("v=x", E9, "y\nw", E9, "\n"));
            assertThat(outputOfCompleted(r.out(), cluster.workDir().resolve("wrap-" + tag + ".out")))
                    .as(lang)
                    .containsExactly(bytes("a", E9, "b\np", (byte) 0xff, "q\n"));
        }
    }

    @Test
    void aNewlineInAJobNameIsRefusedAndNothingIsQueued() throws Exception {
        ClusterProcesses.Result r = cluster.command("sbatch", "-J", "a\n  99 root R", "--wrap", "true");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err())
                .isEqualTo(
                        "sbatch: error: Batch job submission failed: Invalid JobName: control character \\n is not allowed\n");
        assertThat(cluster.command("squeue", "-h", "-t", "all", "-o", "%j").out())
                .doesNotContain("99 root");
    }

    @Test
    void memoryNoNodeHasIsRefusedAtSubmitAsSlurmRefusesIt() throws Exception {
        ClusterProcesses.Result r = cluster.command("sbatch", "--mem=9000000", "--wrap", "true");
        assertThat(r)
                .isEqualTo(
                        new ClusterProcesses.Result(
                                1,
                                "",
                                "sbatch: error: Memory specification can not be satisfied\n"
                                        + "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"));
    }

    @Test
    void aScriptOverMaxScriptSizeGetsSlurmsAnswerAtAnySize() throws Exception {
        String refused =
                "sbatch: error: Batch job submission failed: Pathname of a file, directory or other parameter too long\n";
        for (int mb : new int[] {5, 20}) {
            byte[] script = new byte[mb * 1024 * 1024];
            java.util.Arrays.fill(script, (byte) '#');
            System.arraycopy(bytes("#!/bin/sh\n"), 0, script, 0, 10);
            script[script.length - 1] = '\n';
            Files.write(cluster.workDir().resolve("big.sh"), script);
            assertThat(cluster.command("sbatch", "big.sh"))
                    .as(mb + " MB")
                    .isEqualTo(new ClusterProcesses.Result(1, "", refused));
        }
    }
}
