package dev.sluice.cli.command.sbatch;

import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.text.RawText;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * sbatch's option values after merging the three sources. Later sources overwrite earlier
 * ones option by option, and Slurm applies them as {@code #SBATCH} lines, then
 * {@code SBATCH_*} variables, then the command line, so the command line wins.
 * Opposite flags share one slot ({@code --requeue}/{@code --no-requeue}): the last one wins.
 */
final class SubmitOptions {
    private final Map<String, String> values = new HashMap<>();

    void apply(List<ParsedOption> options) {
        for (ParsedOption o : options) {
            set(o.key(), o.value());
        }
    }

    void applyEnv(Map<String, String> env) {
        // A fixed order keeps the result independent of the map's iteration order.
        SbatchOptions.ENV.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .filter(e -> env.containsKey(e.getKey()))
                .forEach(e -> set(e.getValue(), env.get(e.getKey())));
    }

    private void set(String key, String value) {
        switch (key) {
            case "requeue" -> values.put("requeue", "1");
            case "no-requeue" -> values.put("requeue", "0");
            default -> values.put(key, value == null ? "" : value);
        }
    }

    boolean has(String key) {
        return values.containsKey(key);
    }

    /**
     * The value as text, {@code ""} for a flag or an optional argument left out, null when
     * absent. Bytes that were not UTF-8 read as U+FFFD: this value goes into a text field.
     */
    String get(String key) {
        String v = values.get(key);
        return v == null ? null : RawText.toText(v);
    }

    /** The value with every byte as given ({@link RawText}): for {@code --wrap} and {@code --export}. */
    String raw(String key) {
        return values.get(key);
    }
}
