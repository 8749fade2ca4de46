package dev.sluice.common.conf.show;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A comma list of words as Slurm prints it back: Slurm keeps such settings as bits and prints
 * the bits in its own order and spelling, whatever order and case slurm.conf used, with words
 * that imply others expanded ({@code AccountingStorageEnforce=safe} prints {@code
 * associations,limits,safe}).
 */
final class WordList {

    private WordList() {}

    /** {@code value} as Slurm prints setting {@code name}; {@code dflt} when no word is left. */
    static String print(SettingsTable table, String name, String value, String dflt) {
        List<String> vocabulary = table.vocabulary(name);
        // lower-case word -> spelling, in the order given
        Map<String, String> words = new LinkedHashMap<>();
        for (String w : value.split(",")) {
            if (!w.isBlank()) {
                add(words, vocabulary, w.strip());
            }
        }
        for (SettingsTable.Alias a : table.aliases(name)) {
            boolean applies = a.alone()
                    ? words.keySet().equals(a.words())
                    : words.keySet().containsAll(a.words());
            if (applies) {
                a.words().forEach(words::remove);
                a.to().forEach(w -> add(words, vocabulary, w));
            }
        }
        List<String> out = new ArrayList<>();
        for (String v : vocabulary) {
            if (words.remove(SettingsTable.lower(v)) != null) {
                out.add(v);
            }
        }
        // Slurm drops a word it does not know (with an error in its log), so it does not print.
        return out.isEmpty() ? dflt : String.join(",", out);
    }

    private static void add(Map<String, String> words, List<String> vocabulary, String word) {
        String key = SettingsTable.lower(word);
        String spelled = vocabulary.stream()
                .filter(v -> SettingsTable.lower(v).equals(key))
                .findFirst()
                .orElse(word);
        words.putIfAbsent(key, spelled);
    }
}
