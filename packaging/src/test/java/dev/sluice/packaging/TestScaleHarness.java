package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.packaging.sim.ScaleHarness;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice scale} at a small size: it fills the cluster, leaves a queue and measures a pass. */
class TestScaleHarness {
    @Test
    void fillsTheClusterAndTimesPassesOverTheQueue(@TempDir Path work) throws Exception {
        ScaleHarness.Report report = ScaleHarness.run(work, 20, 400, 7, 2);

        assertThat(report.running()).isPositive();
        assertThat(report.pending()).isPositive();
        // Every job is running or waiting: none was refused or lost.
        assertThat(report.running() + report.pending()).isEqualTo(400);
        assertThat(report.passMillisMedian()).isPositive();
        assertThat(report.heapMb()).isPositive();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        report.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("nodes                          20")
                .contains("scheduling pass, median (ms)");
    }
}
