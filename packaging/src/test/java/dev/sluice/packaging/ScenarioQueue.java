package dev.sluice.packaging;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The differential suite's queue when several clusters share the scenarios ({@code difftest.py
 * run --claim}): one line per scenario, or per {@code @sequence} (its scenarios in name order,
 * tab-separated, so one cluster runs them one after the other, as they were recorded), the
 * longest expected first so that no cluster is left with a long one at the end. Only where and
 * when a scenario runs depends on the estimate, never what it prints.
 */
final class ScenarioQueue {
    private ScenarioQueue() {}

    /** The queue's lines for {@code scenarios} (given in name order). */
    static List<String> lines(List<Path> scenarios) {
        record Line(String text, double seconds) {}
        List<Line> lines = new ArrayList<>();
        Map<String, List<Path>> sequences = new TreeMap<>();
        for (Path scenario : scenarios) {
            List<String> text = read(scenario);
            String sequence = sequence(text);
            if (sequence == null) {
                lines.add(new Line(scenario.toString(), seconds(text)));
            } else {
                sequences.computeIfAbsent(sequence, k -> new ArrayList<>()).add(scenario);
            }
        }
        sequences
                .values()
                .forEach(members -> lines.add(new Line(
                        String.join("\t", members.stream().map(Path::toString).toList()),
                        members.stream().mapToDouble(p -> seconds(read(p))).sum())));
        return lines.stream()
                .sorted(Comparator.comparingDouble(Line::seconds).reversed().thenComparing(Line::text))
                .map(Line::text)
                .toList();
    }

    /** The name of the {@code @sequence} the scenario belongs to, or null. */
    static String sequence(List<String> lines) {
        return lines.stream()
                .map(String::strip)
                .filter(l -> l.startsWith("@sequence "))
                .map(l -> l.substring("@sequence ".length()).strip())
                .findFirst()
                .orElse(null);
    }

    /**
     * A rough running time: the waits the scenario asks for ({@code @sleep}), controller restarts
     * and reconfigurations (each undone when it ends), and a little per command.
     */
    static double seconds(List<String> lines) {
        double s = 1.0;
        boolean inBody = false;
        for (String raw : lines) {
            String line = raw.strip();
            if (inBody) {
                inBody = !line.equals("@end");
            } else if (line.startsWith("@slurm.conf")) {
                s += line.contains("restart") ? 16.0 : 4.0;
                inBody = true;
            } else if (line.startsWith("@file")) {
                inBody = true;
            } else if (line.startsWith("@sleep")) {
                s += Double.parseDouble(line.split("\\s+")[1]);
            } else if (line.startsWith("@wait")) {
                s += 1.0;
            } else if (!line.isEmpty() && !line.startsWith("#")) {
                s += 0.3;
            }
        }
        return s;
    }

    private static List<String> read(Path scenario) {
        try {
            return Files.readAllLines(scenario);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
