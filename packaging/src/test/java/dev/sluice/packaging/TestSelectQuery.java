package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.packaging.sim.SelectQuery;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice select-query} over the seeds' fake-GPU lab shipped in config-examples. */
class TestSelectQuery {
    @TempDir
    Path tmp;

    @Test
    void placesWaitsAndRefusesLikeTheController() throws Exception {
        Path requests = tmp.resolve("requests.txt");
        Files.writeString(requests, """
                # two whole-cluster GPU jobs: the second waits
                -N2 --gres=gpu:2 --mem=1000
                -N2 --gres=gpu:2 --mem=1000
                --gres=gpu:1,mps:50
                """);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SelectQuery.run(
                new String[] {"--conf", "../config-examples/fake-gpu-lab/slurm.conf", requests.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("""
                -N2 --gres=gpu:2 --mem=1000
                  job 1: placed on slinky-lab-worker cpu=2 cores=0 mem=1000M gpu idx=0,1; slinky-lab-worker2 cpu=2 cores=0 mem=1000M gpu idx=0,1
                -N2 --gres=gpu:2 --mem=1000
                  job 2: pending (Resources): needs 2 node(s) with cpu=1,mem=1000M,gres/gpu=2 each; 0 of 2 node(s) \
                qualify now, 2 too busy; best node slinky-lab-worker has cpu=6,mem=14000M,gres/gpu=1 free
                --gres=gpu:1,mps:50
                  rejected: Invalid generic resource (gres) specification
                """);
    }

    /** Its scratch state and throw-away cluster key go with it, also when it fails. */
    @Test
    void leavesNothingBehindInTheTemporaryDirectory() throws Exception {
        Path requests = tmp.resolve("requests.txt");
        Files.writeString(requests, "-N1\n");
        java.util.Set<Path> before = scratch();
        for (String conf : new String[] {
            "../config-examples/fake-gpu-lab/slurm.conf",
            tmp.resolve("absent.conf").toString()
        }) {
            SelectQuery.run(
                    new String[] {"--conf", conf, requests.toString()},
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
        assertThat(scratch()).isEqualTo(before);
    }

    private static java.util.Set<Path> scratch() throws java.io.IOException {
        try (var dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return dirs.filter(p -> p.getFileName().toString().startsWith("sluice-select-query"))
                    .collect(java.util.stream.Collectors.toSet());
        }
    }
}
