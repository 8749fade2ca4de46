package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.packaging.sim.SelectQuery;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden {@code sluice select-query} runs: each file under {@code src/test/resources/select-query}
 * holds sections {@code === slurm.conf}, {@code === gres.conf}, {@code === requests} and
 * {@code === expected} (what select-query prints). Run with {@code -Dgolden.rewrite=true} to
 * rewrite the expected sections, then review the diff.
 */
class TestSelectQueryGolden {
    private static final Path DIR = Path.of("src/test/resources/select-query");

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> queries() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(DIR)) {
            files = s.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> run(f)));
    }

    private void run(Path file) throws Exception {
        String text = Files.readString(file);
        int firstSection = text.indexOf("=== ");
        Map<String, String> sections = sections(text.substring(firstSection));
        Path dir = Files.createDirectories(tmp.resolve(file.getFileName().toString()));
        Files.writeString(dir.resolve("slurm.conf"), sections.get("slurm.conf"));
        if (sections.containsKey("gres.conf")) {
            Files.writeString(dir.resolve("gres.conf"), sections.get("gres.conf"));
        }
        Path requests = Files.writeString(dir.resolve("requests"), sections.get("requests"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SelectQuery.run(
                new String[] {"--conf", dir.resolve("slurm.conf").toString(), requests.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        String actual = out.toString(StandardCharsets.UTF_8);
        if (Boolean.getBoolean("golden.rewrite")) {
            int at = text.indexOf("=== expected\n") + "=== expected\n".length();
            Files.writeString(file, text.substring(0, at) + actual);
            return;
        }
        assertThat(actual).as(file.toString()).isEqualTo(sections.get("expected"));
    }

    private static Map<String, String> sections(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("=== ")) {
                if (name != null) {
                    out.put(name, body.toString());
                }
                name = line.substring(4).strip();
                body.setLength(0);
            } else {
                body.append(line).append('\n');
            }
        }
        out.put(name, body.substring(0, Math.max(0, body.length() - 1)));
        return out;
    }
}
