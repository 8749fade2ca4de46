package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Caller;
import dev.sluice.packaging.sim.SimulatedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden scenarios (etcd-raft style): each file under {@code src/test/resources/scenarios}
 * holds configuration files and a script of commands, each followed by exactly what it must
 * print, run against a real controller over simulated nodes with a manual clock. Run with
 * {@code -Dgolden.rewrite=true} to rewrite the expectations, then review the diff.
 *
 * <pre>
 * === slurm.conf            a configuration file follows (also gres.conf)
 * > sbatch -N2 --wrap x     a user command (shell-style quoting), its output below
 * > @advance 60             simulated time passes (seconds)
 * > @end 1 0                job 1's batch script exits with code 0 (or an array task: 5_0)
 * > @as alice 1000          following commands run as this user (default root)
 * </pre>
 *
 * Output is stdout, then stderr, then {@code [exit N]} when the exit code is not 0.
 */
class TestScenarios {
    private static final Path DIR = Path.of("src/test/resources/scenarios");
    private static final Instant START = Instant.parse("2026-11-29T08:00:00Z");

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> scenarios() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(DIR)) {
            files = s.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> run(f)));
    }

    private void run(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        Path work = Files.createDirectories(tmp.resolve(file.getFileName().toString()));
        Path etc = Files.createDirectories(work.resolve("etc"));
        int i = 0;
        while (i < lines.size() && !lines.get(i).startsWith("> ")) {
            String line = lines.get(i);
            if (line.startsWith("=== ")) {
                Path conf = etc.resolve(line.substring(4).strip());
                StringBuilder text = new StringBuilder();
                i++;
                while (i < lines.size()
                        && !lines.get(i).startsWith("=== ")
                        && !lines.get(i).startsWith("> ")) {
                    text.append(lines.get(i)).append('\n');
                    i++;
                }
                Files.writeString(conf, text.toString());
            } else {
                i++;
            }
        }
        List<String> rewritten = new ArrayList<>(lines.subList(0, i));
        StringBuilder expectedAll = new StringBuilder();
        StringBuilder actualAll = new StringBuilder();
        Caller caller = new Caller(0, 0, "root", "login1");
        try (SimulatedCluster cluster = SimulatedCluster.start(etc.resolve("slurm.conf"), work, START)) {
            while (i < lines.size()) {
                String command = lines.get(i).substring(2);
                i++;
                StringBuilder expected = new StringBuilder();
                while (i < lines.size() && !lines.get(i).startsWith("> ")) {
                    expected.append(lines.get(i)).append('\n');
                    i++;
                }
                List<String> words = dev.sluice.packaging.sim.Words.split(command);
                String actual;
                switch (words.get(0)) {
                    case "@advance" -> {
                        cluster.advance(Long.parseLong(words.get(1)));
                        actual = "";
                    }
                    case "@end" -> {
                        cluster.end(words.get(1), Integer.parseInt(words.get(2)));
                        actual = "";
                    }
                    case "@as" -> {
                        int uid = Integer.parseInt(words.get(2));
                        caller = new Caller(uid, uid, words.get(1), "login1");
                        actual = "";
                    }
                    default -> {
                        SimulatedCluster.Output o =
                                cluster.run(caller, words.get(0), words.subList(1, words.size()), null);
                        actual = o.out() + o.err() + (o.exitCode() == 0 ? "" : "[exit " + o.exitCode() + "]\n");
                    }
                }
                rewritten.add("> " + command);
                rewritten.addAll(actual.lines().toList());
                expectedAll.append("> ").append(command).append('\n').append(expected);
                actualAll.append("> ").append(command).append('\n').append(actual);
            }
        }
        if (Boolean.getBoolean("golden.rewrite")) {
            Files.write(file, rewritten);
            return;
        }
        assertThat(actualAll.toString()).as(file.toString()).isEqualTo(expectedAll.toString());
    }
}
