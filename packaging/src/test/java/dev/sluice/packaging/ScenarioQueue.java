package dev.sluice.packaging;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The differential suite's queue when several clusters share the scenarios ({@code difftest.py
 * run --claim}): one line per scenario, or per {@code @sequence} (its scenarios in name order,
 * tab-separated, so one cluster runs them one after the other, as they were recorded), the
 * longest expected first so that no cluster is left with a long one at the end. Only where and
 * when a scenario runs depends on the estimate, never what it prints.
 */
final class ScenarioQueue {
    /** Every scenario, in the order given (name order). */
    private final List<Path> scenarios;

    /** Scenario to its {@code @sequence}, for those in one: the queue's lines and reruns use it. */
    private final Map<Path, String> sequenceOf = new HashMap<>();

    /** Scenario to its estimated running time. */
    private final Map<Path, Double> seconds = new HashMap<>();

    private ScenarioQueue(List<Path> scenarios) {
        this.scenarios = List.copyOf(scenarios);
        for (Path p : scenarios) {
            List<String> text = read(p);
            String sequence = sequence(text);
            if (sequence != null) {
                sequenceOf.put(p, sequence);
            }
            seconds.put(p, seconds(text));
        }
    }

    /** The scenarios' files read once, for the queue and for running differing ones again. */
    static ScenarioQueue of(List<Path> scenarios) {
        return new ScenarioQueue(scenarios);
    }

    /** The queue's lines (the scenarios given in name order). */
    List<String> lines() {
        record Line(String text, double seconds) {}
        List<Line> lines = new ArrayList<>();
        Map<String, List<Path>> sequences = new TreeMap<>();
        for (Path scenario : scenarios) {
            String sequence = sequenceOf.get(scenario);
            if (sequence == null) {
                lines.add(new Line(scenario.toString(), seconds.get(scenario)));
            } else {
                sequences.computeIfAbsent(sequence, k -> new ArrayList<>()).add(scenario);
            }
        }
        sequences
                .values()
                .forEach(members -> lines.add(new Line(
                        String.join("\t", members.stream().map(Path::toString).toList()),
                        members.stream().mapToDouble(seconds::get).sum())));
        return lines.stream()
                .sorted(Comparator.comparingDouble(Line::seconds).reversed().thenComparing(Line::text))
                .map(Line::text)
                .toList();
    }

    /**
     * What runs again for {@code differing}: each one, and where it belongs to a {@code @sequence}
     * every scenario of that sequence too (they depend on the ones before them), in name order
     * per differing scenario, each once.
     */
    Set<Path> withTheirSequences(List<Path> differing) {
        Set<Path> again = new LinkedHashSet<>();
        for (Path p : differing) {
            String sequence = sequenceOf.get(p);
            for (Path q : scenarios) {
                if (q.equals(p) || (sequence != null && sequence.equals(sequenceOf.get(q)))) {
                    again.add(q);
                }
            }
        }
        return again;
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
