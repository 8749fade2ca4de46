package dev.sluice.cli.command.submit;

import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.text.RawText;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The option values of sbatch, srun or salloc after merging their sources. Later sources
 * overwrite earlier ones option by option, and Slurm applies them as {@code #SBATCH} lines, then
 * input variables ({@code SBATCH_*}, {@code SLURM_*}, {@code SALLOC_*}), then the command line,
 * so the command line wins. Opposite flags share one slot ({@code --requeue}/{@code
 * --no-requeue}): the last one wins.
 */
public final class SubmitOptions {
    private final Map<String, String> values = new HashMap<>();

    public void apply(List<ParsedOption> options) {
        for (ParsedOption o : options) {
            set(o.key(), o.value());
        }
    }

    /** {@code variables}: input variable name to the option it stands for. */
    public void applyEnv(Map<String, String> variables, Map<String, String> env) {
        // A fixed order keeps the result independent of the map's iteration order.
        variables.entrySet().stream()
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

    /** The keys given, in no particular order. */
    public java.util.Set<String> keys() {
        return java.util.Set.copyOf(values.keySet());
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    /**
     * The value as text, {@code ""} for a flag or an optional argument left out, null when
     * absent. Bytes that were not UTF-8 read as U+FFFD: this value goes into a text field.
     */
    public String get(String key) {
        String v = values.get(key);
        return v == null ? null : RawText.toText(v);
    }

    /** The value with every byte as given ({@link RawText}): for {@code --wrap} and {@code --export}. */
    public String raw(String key) {
        return values.get(key);
    }
}
