package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guarantee: when StateSaveLocation cannot be written (disk full), the controller refuses new
 * work with a clear error that {@code sbatch} prints, keeps answering queries, and takes work
 * again once space returns, with nothing it acknowledged lost and nothing corrupted. The state
 * directory is a small tmpfs filled on purpose (needs root; skipped where mounting is not
 * allowed).
 */
class TestStateSaveFullEndToEnd {
    @TempDir
    static Path stateDir;

    private static Path mount;
    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        mount = stateDir.resolve("statesave");
        Files.createDirectories(mount);
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString())
                .redirectErrorStream(true)
                .start();
        assumeTrue(m.waitFor() == 0, "mounting a tmpfs needs root");
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        cluster.editSlurmConf(conf -> conf.replaceAll("(?m)^StateSaveLocation=.*$", "StateSaveLocation=" + mount));
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (mount != null) {
            new ProcessBuilder("umount", "-l", mount.toString()).start().waitFor();
        }
    }

    private static int submitHeld(String name) throws Exception {
        ClusterProcesses.Result r = cluster.command("sbatch", "-H", "-J", name, "--wrap", "true");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return Integer.parseInt(r.out().replaceAll("\\D", ""));
    }

    /** Writes until the file system says no more. */
    private static void fill(Path file) throws IOException {
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            assertThat(full.getMessage()).containsIgnoringCase("space");
        }
    }

    @Test
    void aFullStateDirectoryRefusesWorkKeepsAnsweringAndRecovers() throws Exception {
        int before = submitHeld("before");
        Path filler = mount.resolve("filler");
        fill(filler);

        // Larger than the free tail of the journal's and the outbox's last pages: a record that
        // small could still land there on a full file system, and the test would depend on sizes.
        ClusterProcesses.Result refused = cluster.command("sbatch", "--wrap", "true # " + "x".repeat(16 * 1024));
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err())
                .isEqualTo("sbatch: error: Batch job submission failed: "
                        + "Unable to save state: the controller refuses new work until it can\n");
        ClusterProcesses.Result queue = cluster.command("squeue", "-h", "-o", "%i %j %t");
        assertThat(queue.exitCode()).isZero();
        assertThat(queue.out()).isEqualTo(before + " before PD\n");
        ClusterProcesses.Result stillRefused = cluster.command("scontrol", "release", Integer.toString(before));
        assertThat(stillRefused.exitCode()).isNotZero();

        Files.delete(filler);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> cluster.command("sbatch", "-H", "-J", "after", "--wrap", "true")
                                .exitCode()
                        == 0);
        ClusterProcesses.Result after = cluster.command("squeue", "-h", "-o", "%i %j", "-S", "i");
        String[] lines = after.out().strip().split("\n");
        assertThat(lines[0]).isEqualTo(before + " before");
        assertThat(lines).hasSize(2);
        assertThat(Integer.parseInt(lines[1].split(" ")[0])).isGreaterThan(before);
        assertThat(lines[1]).endsWith(" after");
        assertThat(cluster.logs()).contains("restarting the controller from StateSaveLocation");
    }
}
