package dev.sluice.cli.getopt;

import static java.util.Objects.requireNonNull;

/**
 * One option as found on the command line, in command-line order.
 *
 * @param value the argument, or {@code null} when none was given (flags, absent optional ones)
 * @param spelling how the user wrote the option, for messages ({@code -N}, {@code --nodes})
 */
public record ParsedOption(String key, String value, String spelling) {
    public ParsedOption {
        requireNonNull(key, "key is null");
        requireNonNull(spelling, "spelling is null");
    }
}
