package dev.sluice.cli.getopt;

import static java.util.Objects.requireNonNull;

/**
 * One entry of an option table.
 *
 * @param key what the command switches on; several spellings may share one key
 * @param shortName the short letter, or {@code 0} when the option has only a long name
 * @param longName the long name without dashes, or {@code null} for a short-only option
 * @param supported {@code false} for an option Slurm has but this command does not implement:
 *     it still takes part in prefix matching (so {@code --ex} stays as ambiguous as in Slurm)
 *     but using it is reported as unrecognized rather than silently ignored
 */
public record OptionSpec(String key, char shortName, String longName, ArgKind arg, boolean supported) {
    public OptionSpec {
        requireNonNull(key, "key is null");
        requireNonNull(arg, "arg is null");
        if (shortName == 0 && longName == null) {
            throw new IllegalArgumentException("option " + key + " has neither a short nor a long name");
        }
    }
}
