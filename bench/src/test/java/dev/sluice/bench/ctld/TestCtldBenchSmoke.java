package dev.sluice.bench.ctld;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The controller-bound benchmark at a tiny size: a real sluice-ctld, two simulated nodes, twenty
 * jobs, which must all be launched on the simulated nodes and acknowledged as ended. Checks that
 * the simulator speaks the controller's protocol and that the row is printed, not the timings.
 */
class TestCtldBenchSmoke {
    @Test
    void twentyJobsRunThroughARealControllerOnSimulatedNodes() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CtldBench.Round round = CtldBench.run(
                BenchOptions.parse(new String[] {
                    "--nodes", "2", "--cpus", "4", "--jobs", "20", "--warmup", "0", "--no-accounting", "--timeout", "60"
                }),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(round.jobs()).isEqualTo(20);
        assertThat(round.failed()).isZero();
        assertThat(round.ctldCpuMs()).isPositive();
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("2 simulated nodes x 4 CPUs")
                .containsPattern("measured +20 +[0-9.]+ +[0-9]+ +- +[0-9.]+ +- ");
    }
}
