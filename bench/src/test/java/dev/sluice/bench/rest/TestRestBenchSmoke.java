package dev.sluice.bench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/bench-rest --smoke}, smaller still: a real sluice-ctld and sluice-restd, two
 * simulated nodes, three rounds of twenty jobs (without, with, without five polling clients).
 * Checks the shape — every job ended, every poll answered by restd with the listing, a row per
 * round and the comparison printed — not the timings.
 */
class TestRestBenchSmoke {
    @Test
    void pollersAreAnsweredWhileTheControllerRunsTheRounds() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RestBench.Result result = RestBench.run(
                RestOptions.parse(new String[] {"--smoke", "--jobs", "20", "--warmup", "0", "--clients", "5"}),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(result.rounds()).hasSize(3);
        assertThat(result.failed()).as(out).isZero();
        RestBench.Round polled = result.rounds().get(1);
        assertThat(polled.polled()).isTrue();
        assertThat(polled.polls().answered()).as(out).isPositive();
        assertThat(polled.passes().listings()).as(out).isPositive();
        assertThat(polled.polls().bytes()).isPositive();
        assertThat(result.rounds().get(0).passes().listings()).isZero();
        assertThat(result.ratios()).hasSize(1);
        assertThat(out)
                .contains("5 REST clients (5 tokens)")
                .containsPattern("(?m)^ +2 +yes +[0-9]+ ")
                .containsPattern("slowdown -?[0-9.]+ % \\(target: at most 5 %\\): (holds|does not hold)");
    }
}
