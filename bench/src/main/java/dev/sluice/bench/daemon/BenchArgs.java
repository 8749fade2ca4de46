package dev.sluice.bench.daemon;

import java.nio.file.Path;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A benchmark's command line, walked one option at a time: flags, and options that take the next
 * word as their value. The caller switches on {@link #option()}; an option it did not declare, or
 * one missing its value, is refused here with the message the scripts print above their usage.
 *
 * <pre>{@code
 * BenchArgs a = new BenchArgs(args, Set.of("--keep"), Set.of("--jobs"));
 * while (a.next()) {
 *     switch (a.option()) {
 *         case "--keep" -> keep = true;
 *         case "--jobs" -> jobs = a.count(1);
 *     }
 * }
 * }</pre>
 */
public final class BenchArgs {
    private final String[] args;
    private final Set<String> flags;
    private final Set<String> valued;
    private int at = -1;
    private String option;
    private String value;

    public BenchArgs(String[] args, Set<String> flags, Set<String> valued) {
        this.args = args.clone();
        this.flags = Set.copyOf(flags);
        this.valued = Set.copyOf(valued);
    }

    /**
     * Parses the options with {@code parse}, or prints {@code PROGRAM: problem} and the usage on
     * standard error and exits with status 2, as the benchmark scripts do.
     */
    public static <T> T parseOrExit(String program, String usage, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            System.err.println(program + ": " + e.getMessage());
            System.err.println(usage);
            System.exit(2);
            throw e; // not reached
        }
    }

    /** Moves to the next option; false at the end. */
    public boolean next() {
        if (++at >= args.length) {
            return false;
        }
        option = args[at];
        value = null;
        if (valued.contains(option)) {
            if (at + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            value = args[++at];
        } else if (!flags.contains(option)) {
            throw new IllegalArgumentException("unknown option " + option);
        }
        return true;
    }

    public String option() {
        return option;
    }

    /** The value of the current option. */
    public String value() {
        if (value == null) {
            throw new IllegalStateException(option + " is a flag");
        }
        return value;
    }

    public Path path() {
        return Path.of(value());
    }

    /** The value as a whole number, at least {@code least}. */
    public int count(int least) {
        int n;
        try {
            n = Integer.parseInt(value());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " wants a number, not " + value);
        }
        if (n < least) {
            throw new IllegalArgumentException(option + " must be at least " + least);
        }
        return n;
    }
}
