package dev.sluice.common.conf.show;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code show-config.txt}, the one table of what {@code scontrol show config} prints: every
 * setting in Slurm's order with its format and default, the cgroup.conf section, and the words of
 * the settings that print as word lists. The file explains its own layout.
 */
final class SettingsTable {

    /** One printed setting. {@code multifactorOnly}: printed only with priority/multifactor. */
    record Row(String name, String format, boolean multifactorOnly, String dflt) {}

    /**
     * Words that print as others: {@code words} (lower case) together, or {@code alone} when they
     * are the whole value, print as {@code to}.
     */
    record Alias(Set<String> words, List<String> to, boolean alone) {}

    static final String RESOURCE = "show-config.txt";

    static final SettingsTable TABLE = parse(load());

    final List<Row> settings;
    final String cgroupTitle;
    final List<Row> cgroup;
    private final Map<String, List<String>> vocabulary;
    private final Map<String, List<Alias>> aliases;

    private SettingsTable(
            List<Row> settings,
            String cgroupTitle,
            List<Row> cgroup,
            Map<String, List<String>> vocabulary,
            Map<String, List<Alias>> aliases) {
        this.settings = List.copyOf(settings);
        this.cgroupTitle = cgroupTitle;
        this.cgroup = List.copyOf(cgroup);
        this.vocabulary = Collections.unmodifiableMap(vocabulary);
        this.aliases = Collections.unmodifiableMap(aliases);
    }

    /** The words a setting prints, in print order and spelling; empty for a free-form setting. */
    List<String> vocabulary(String name) {
        return vocabulary.getOrDefault(name, List.of());
    }

    List<Alias> aliases(String name) {
        return aliases.getOrDefault(name, List.of());
    }

    private static String load() {
        try (InputStream in = SettingsTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static SettingsTable parse(String text) {
        List<Row> settings = new ArrayList<>();
        List<Row> cgroup = new ArrayList<>();
        String cgroupTitle = null;
        Map<String, List<String>> vocabulary = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Map<String, List<Alias>> aliases = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            if (l.startsWith("@section ")) {
                cgroupTitle = l.substring("@section ".length()).strip();
            } else if (l.startsWith("@flags ")) {
                String[] f = l.split(" +", 3);
                vocabulary.put(f[1], List.of(f[2].split(",")));
            } else if (l.startsWith("@alias ") || l.startsWith("@alone ")) {
                String[] f = l.split(" +", 3);
                String[] rule = f[2].split("=>", 2);
                Set<String> words = new TreeSet<>();
                Arrays.stream(rule[0].strip().split("\\+")).forEach(w -> words.add(lower(w)));
                List<String> to =
                        rule[1].isBlank() ? List.of() : List.of(rule[1].strip().split(","));
                aliases.computeIfAbsent(f[1], k -> new ArrayList<>())
                        .add(new Alias(words, to, l.startsWith("@alone ")));
            } else {
                String[] f = l.split(" +", 4);
                if (f.length < 4) {
                    throw new IllegalStateException(RESOURCE + ": incomplete line: " + l);
                }
                String dflt = f[3].equals("\"\"") ? "" : f[3];
                Row row = new Row(f[0], f[1], f[2].equals("multifactor"), dflt);
                (cgroupTitle == null ? settings : cgroup).add(row);
            }
        }
        if (cgroupTitle == null) {
            throw new IllegalStateException(RESOURCE + " has no @section");
        }
        return new SettingsTable(settings, cgroupTitle, cgroup, vocabulary, aliases);
    }

    static String lower(String word) {
        return word.strip().toLowerCase(Locale.ROOT);
    }
}
