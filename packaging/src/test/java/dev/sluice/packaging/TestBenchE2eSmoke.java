package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/bench-e2e --smoke} end to end: it starts its own cluster, measures every row at a
 * tiny size and prints one table. Timings are not checked (they depend on the machine); that
 * every row is there with a number, and that no job failed (the script stops if one does), is.
 */
class TestBenchE2eSmoke {
    /** The rows of docs/benchmarks.md's "End to end" table, in the order the script prints them. */
    private static final List<String> ROWS = List.of(
            "sbatch -H loop, 1 client",
            "sbatch -H, 8 clients",
            "API submit, 32 in flight",
            "  jobs per journal sync in that row",
            "10 x /bin/true, submit to all ended",
            "same, 4 clients polling squeue",
            "40 x /bin/true, submit to all ended",
            "array of 20 tasks, submit to all ended",
            "squeue, 50 held jobs queued",
            "squeue, 500 held jobs queued",
            "scancel -n of 500 held jobs");

    @Test
    void printsEveryRowWithANumber(@TempDir Path work) throws Exception {
        Path root = Path.of(System.getProperty("user.dir")).getParent();
        Path out = work.resolve("out.txt");
        ProcessBuilder pb = new ProcessBuilder(
                        root.resolve("scripts/bench-e2e").toString(),
                        "--smoke",
                        "--nodes",
                        "2",
                        "--cpus",
                        "4",
                        "--state-dir",
                        work.resolve("cluster").toString())
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile());
        // Before `package` there is no packaging/target/lib: the scripts run on this test's
        // class path (bin/_sluice-java), with this JVM.
        pb.environment().put("SLUICE_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("SLURM_CONF");
        pb.environment().remove("SLUICE_AGENT_SOCKET");
        Process p = pb.start();
        boolean ended = p.waitFor(10, TimeUnit.MINUTES);
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        String table = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(ended).as(table).isTrue();
        assertThat(p.exitValue()).as(table).isZero();
        List<String> lines = table.lines().filter(l -> l.startsWith("| ")).toList();
        assertThat(lines.get(0)).contains("measure", "Sluice", "real Slurm", "unit", "load");
        for (String row : ROWS) {
            // | label | sluice figure | real Slurm figure or "-" | unit | load |
            Pattern shape = Pattern.compile(
                    "\\| " + Pattern.quote(row) + "[^|]*\\|\\s+[0-9]+(\\.[0-9]+)?\\s+\\|\\s+-\\s+\\|.*");
            assertThat(lines).as(table).anyMatch(l -> shape.matcher(l).matches());
        }
        assertThat(lines).as("header and one line per row").hasSize(ROWS.size() + 1);
        // The script names jobs that ended other than COMPLETED, or a wait that gave up, in the label.
        assertThat(table).doesNotContain("FAILED", "TIMED OUT");
    }
}
