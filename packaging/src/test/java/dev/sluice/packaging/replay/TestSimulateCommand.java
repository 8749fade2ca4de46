package dev.sluice.packaging.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice simulate} end to end, at smoke size, and the trace shipped with Sluice. */
class TestSimulateCommand {
    private record Run(int code, String out, String err) {}

    private static Run simulate(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Simulate.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aGeneratedTraceWrittenAsSwfReplaysToTheSameReport(@TempDir Path dir) throws Exception {
        Path swf = dir.resolve("gen.swf");

        Run generated = simulate(
                "--generate",
                "--seed",
                "5",
                "--jobs",
                "300",
                "--nodes",
                "16",
                "--cpus",
                "16",
                "--write-swf",
                swf.toString());
        Run replayed = simulate("--swf", swf.toString(), "--nodes", "16", "--cpus", "16");

        assertThat(generated.code()).isZero();
        assertThat(generated.err()).isEmpty();
        assertThat(replayed).isEqualTo(generated);
        assertThat(generated.out())
                .startsWith("cluster                        16 nodes x 16 CPUs, 0 GPUs each\n"
                        + "scheduler                      sched/backfill, bf_max_job_test=500, bf_window=1440\n"
                        + "jobs in trace                  300\n")
                .contains("jobs run                       300\n");
        assertThat(Files.readAllLines(swf)).first().isEqualTo("; Version: 2.2");
    }

    /**
     * The trace and report in {@code packaging/traces}, as docs/benchmarks.md shows them: a change
     * to the scheduler that changes its decisions shows up here, and the shipped report must be
     * regenerated with the command in the docs.
     */
    @Test
    void theShippedTraceGivesTheShippedReport() throws Exception {
        Run run = simulate("--swf", "traces/synthetic-2000.swf", "--nodes", "64", "--cpus", "32");

        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo(Files.readString(Path.of("traces/synthetic-2000.report")));
    }

    @Test
    void badUsageExplainsItselfAndSimulatesNothing() {
        Run missing = simulate("--swf", "x.swf");
        Run both = simulate("--generate", "--swf", "x.swf", "--nodes", "1", "--cpus", "1");
        Run load = simulate("--generate", "--load", "-1", "--nodes", "1", "--cpus", "1");
        Run absent = simulate("--swf", "no-such.swf", "--nodes", "1", "--cpus", "1");

        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).startsWith("sluice simulate: error: give --nodes and --cpus, or --conf slurm.conf\n");
        assertThat(both.err()).startsWith("sluice simulate: error: give either --swf FILE or --generate\n");
        assertThat(load.err()).startsWith("sluice simulate: error: invalid --load value: -1");
        assertThat(absent.code()).isEqualTo(1);
        assertThat(absent.out()).isEmpty();
        assertThat(absent.err()).isEqualTo("sluice simulate: error: no-such.swf: No such file or directory\n");
    }
}
