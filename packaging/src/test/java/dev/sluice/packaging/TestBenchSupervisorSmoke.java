package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/bench-supervisor} at a tiny size: it drives the node daemon's real supervisor
 * host with the requests a node daemon sends, and stops unless every job's recorded wait status
 * is 0, so a change to what the host is sent that the script does not follow shows here. Timings
 * are not checked.
 */
class TestBenchSupervisorSmoke {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    @Test
    void everyJobEndsWithStatusZeroAndARoundPrintsItsCpuPerJob(@TempDir Path work) throws Exception {
        Run run = run(work, "--jobs", "12", "--in-flight", "4", "--rounds", "1");
        assertThat(run.exit).as(run.out).isZero();
        assertThat(run.out)
                .containsPattern("round 1: +[0-9.]+ jobs/s  CPU +[0-9.]+ ms/job \\(user [0-9.]+, system [0-9.]+\\)");
    }

    @Test
    void aHostThatEndsEarlyIsAFailureNotAFigure(@TempDir Path work) throws Exception {
        Path broken = Files.writeString(work.resolve("broken.pl"), "exit 0;\n");
        Run run = run(work, "--jobs", "3", "--rounds", "1", "--program", broken.toString());
        assertThat(run.exit).as(run.out).isNotZero();
        assertThat(run.out).contains("the supervisor host ended early").doesNotContain("round 1:");
    }

    private record Run(int exit, String out) {}

    private static Run run(Path work, String... args) throws Exception {
        Path out = work.resolve("out.txt");
        List<String> command = new java.util.ArrayList<>(
                List.of(ROOT.resolve("scripts/bench-supervisor").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            throw new AssertionError("bench-supervisor did not end: " + Files.readString(out));
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }
}
