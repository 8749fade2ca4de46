package dev.sluice.common.daemon;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A daemon's options, in the manner of slurmd's: {@code -h} prints {@code Usage: NAME [OPTIONS]}
 * and one aligned line per option; a wrong option is reported with glibc getopt's text
 * ({@code invalid option -- 'Q'}, {@code unrecognized option '--bogus'}, {@code option requires
 * an argument -- 'f'}), the usage follows on standard error and the daemon exits 1.
 *
 * <p>Accepted forms: {@code -f FILE}, {@code -fFILE}, bundled flags ({@code -DZ}),
 * {@code --opt VALUE} and {@code --opt=VALUE}. Long options must be spelled out: a daemon's
 * command line sits in unit files and scripts, where an abbreviation would only break later.
 * {@code -h} and {@code --help} are always there ({@link #HELP}).
 */
public final class DaemonOptions {
    /** {@code -h}, {@code --help}: listed where a table puts it, else last. */
    public static final Option HELP =
            Option.flag("-h", "Print this help message.").alias("--help");

    private final String program;
    private final List<Option> options;

    private DaemonOptions(String program, List<Option> options) {
        this.program = requireNonNull(program, "program is null");
        List<Option> all = new ArrayList<>(options);
        if (!all.contains(HELP)) {
            all.add(HELP);
        }
        this.options = List.copyOf(all);
    }

    /** {@code options} in the order the usage lists them; {@link #HELP} is added if absent. */
    public static DaemonOptions of(String program, List<Option> options) {
        return new DaemonOptions(program, options);
    }

    /**
     * One option. {@code name} is {@code -X} or {@code --long}; {@code argument} names its value
     * in the usage ({@code null}: a flag); {@code alias} is another spelling of the same option.
     */
    public record Option(String name, Optional<String> alias, String argument, String help) {
        public Option {
            requireNonNull(name, "name is null");
            requireNonNull(alias, "alias is null");
            requireNonNull(help, "help is null");
            if (!name.matches("-[A-Za-z]|--[a-z][a-z0-9-]+")) {
                throw new IllegalArgumentException("not an option name: " + name);
            }
        }

        public static Option flag(String name, String help) {
            return new Option(name, Optional.empty(), null, help);
        }

        public static Option withArgument(String name, String argument, String help) {
            return new Option(name, Optional.empty(), requireNonNull(argument, "argument is null"), help);
        }

        public Option alias(String other) {
            return new Option(name, Optional.of(other), argument, help);
        }

        boolean takesArgument() {
            return argument != null;
        }

        boolean answersTo(String spelling) {
            return name.equals(spelling) || alias.map(spelling::equals).orElse(false);
        }

        String synopsis() {
            String names = alias.map(a -> name + ", " + a).orElse(name);
            return argument == null ? names : names + " " + argument;
        }
    }

    /** One option as given: its canonical {@link Option#name()} and value (null for a flag). */
    public record Given(String name, String value) {}

    /** What the command line said: the options in order, or that help was asked for. */
    public record Parsed(List<Given> given, boolean help) {
        public Parsed {
            given = List.copyOf(given);
        }

        /** The last value given for {@code name} (the last one wins, as with getopt loops). */
        public Optional<String> last(String name) {
            Optional<String> v = Optional.empty();
            for (Given g : given) {
                if (g.name().equals(name)) {
                    v = Optional.ofNullable(g.value()).or(() -> Optional.of(""));
                }
            }
            return v;
        }

        public boolean has(String name) {
            return given.stream().anyMatch(g -> g.name().equals(name));
        }
    }

    /** A command line this daemon does not take; {@link #getMessage()} is getopt's line. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    public Parsed parse(List<String> args) throws UsageException {
        List<Given> given = new ArrayList<>();
        boolean help = false;
        for (int i = 0; i < args.size(); i++) {
            String word = args.get(i);
            if (word.startsWith("--")) {
                int eq = word.indexOf('=');
                String spelling = eq >= 0 ? word.substring(0, eq) : word;
                Option o = find(spelling)
                        .orElseThrow(() -> new UsageException(program + ": unrecognized option '" + word + "'"));
                String value = null;
                if (o.takesArgument()) {
                    if (eq >= 0) {
                        value = word.substring(eq + 1);
                    } else if (i + 1 < args.size()) {
                        value = args.get(++i);
                    } else {
                        throw new UsageException(program + ": option '" + spelling + "' requires an argument");
                    }
                } else if (eq >= 0) {
                    throw new UsageException(program + ": option '" + spelling + "' doesn't allow an argument");
                }
                help |= o == HELP;
                given.add(new Given(o.name(), value));
            } else if (word.startsWith("-") && word.length() > 1) {
                for (int c = 1; c < word.length(); c++) {
                    char letter = word.charAt(c);
                    Option o = find("-" + letter)
                            .orElseThrow(() -> new UsageException(program + ": invalid option -- '" + letter + "'"));
                    if (!o.takesArgument()) {
                        help |= o == HELP;
                        given.add(new Given(o.name(), null));
                        continue;
                    }
                    String value;
                    if (c + 1 < word.length()) {
                        value = word.substring(c + 1);
                    } else if (i + 1 < args.size()) {
                        value = args.get(++i);
                    } else {
                        throw new UsageException(program + ": option requires an argument -- '" + letter + "'");
                    }
                    given.add(new Given(o.name(), value));
                    break;
                }
            } else {
                // slurmd takes no operands either; a stray word is most likely a lost value.
                throw new UsageException(program + ": unexpected argument '" + word + "'");
            }
        }
        return new Parsed(given, help);
    }

    /**
     * The last value of a port option ({@code --port}, {@code --metrics-port}): 0 to 65535, 0
     * meaning any free one; empty when not given.
     */
    public Optional<Integer> port(Parsed parsed, String name) throws UsageException {
        Optional<String> value = parsed.last(name);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            int port = Integer.parseInt(value.get());
            if (port >= 0 && port <= 65535) {
                return Optional.of(port);
            }
        } catch (NumberFormatException e) {
            // reported below, as an out-of-range number is
        }
        throw new UsageException(program + ": " + name + ": invalid port '" + value.get() + "'");
    }

    /** {@code -h}: the usage on standard output; exit status 0. */
    public int help(PrintStream out) {
        out.print(usage());
        out.flush();
        return 0;
    }

    /** A command line refused: getopt's line and the usage on standard error; exit status 1. */
    public int refuse(UsageException e, PrintStream err) {
        err.println(e.getMessage());
        err.print(usage());
        err.flush();
        return 1;
    }

    private Optional<Option> find(String spelling) {
        return options.stream().filter(o -> o.answersTo(spelling)).findFirst();
    }

    /** {@code Usage: PROGRAM [OPTIONS]} and one line per option, aligned as slurmd's. */
    public String usage() {
        Map<String, String> lines = new LinkedHashMap<>();
        options.forEach(o -> lines.put(o.synopsis(), o.help()));
        int width = lines.keySet().stream().mapToInt(String::length).max().orElse(0) + 2;
        StringBuilder out = new StringBuilder("Usage: ").append(program).append(" [OPTIONS]\n");
        lines.forEach((synopsis, help) -> out.append("   ")
                .append(synopsis)
                .append(" ".repeat(width - synopsis.length()))
                .append(help)
                .append('\n'));
        return out.toString();
    }
}
