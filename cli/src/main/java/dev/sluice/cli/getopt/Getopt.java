package dev.sluice.cli.getopt;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parses argv the way glibc's {@code getopt_long} does, with the same error texts.
 *
 * <p>Rules reproduced: short options bundle ({@code -Hv}); a short option's required argument
 * is the rest of the word or else the next word ({@code -N2}, {@code -N 2}); an optional one
 * must be attached. A long option is matched exactly or by a unique prefix; its required
 * argument follows {@code =} or is the next word, an optional one only follows {@code =}.
 * {@code --} ends the options; a lone {@code -} is an operand. Without
 * {@link OptionTable#stopAtFirstOperand()} operands and options may be interleaved (glibc's
 * permutation); with it, the first operand ends option parsing.
 */
public final class Getopt {
    private Getopt() {}

    /** The options in command-line order and the operands in order. */
    public record Result(List<ParsedOption> options, List<String> operands) {
        public Result {
            options = List.copyOf(options);
            operands = List.copyOf(operands);
        }
    }

    public static Result parse(String program, OptionTable table, List<String> argv) throws GetoptException {
        List<ParsedOption> options = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        try {
            scan(program, table, argv, options, operands);
        } catch (GetoptException e) {
            throw new GetoptException(e.getMessage(), options);
        }
        return new Result(options, operands);
    }

    private static void scan(
            String program, OptionTable table, List<String> argv, List<ParsedOption> options, List<String> operands)
            throws GetoptException {
        int i = 0;
        while (i < argv.size()) {
            String word = argv.get(i);
            if (word.equals("--")) {
                operands.addAll(argv.subList(i + 1, argv.size()));
                break;
            }
            if (word.startsWith("--")) {
                i = parseLong(program, table, argv, i, options);
            } else if (word.startsWith("-") && word.length() > 1) {
                i = parseShortBundle(program, table, argv, i, options);
            } else if (table.stopAtFirstOperand()) {
                operands.addAll(argv.subList(i, argv.size()));
                break;
            } else {
                operands.add(word);
                i++;
            }
        }
    }

    private static int parseLong(String program, OptionTable table, List<String> argv, int i, List<ParsedOption> out)
            throws GetoptException {
        String word = argv.get(i);
        String body = word.substring(2);
        int eq = body.indexOf('=');
        String name = eq >= 0 ? body.substring(0, eq) : body;
        String attached = eq >= 0 ? body.substring(eq + 1) : null;

        OptionSpec spec = resolveLong(program, table, name, word);
        String spelling = "--" + spec.longName();
        if (!spec.supported()) {
            throw new GetoptException(program + ": unrecognized option '" + word + "'");
        }
        switch (spec.arg()) {
            case NONE -> {
                if (attached != null) {
                    throw new GetoptException(program + ": option '" + spelling + "' doesn't allow an argument");
                }
                out.add(new ParsedOption(spec.key(), null, spelling));
                return i + 1;
            }
            case OPTIONAL -> {
                out.add(new ParsedOption(spec.key(), attached, spelling));
                return i + 1;
            }
            case REQUIRED -> {
                if (attached != null) {
                    out.add(new ParsedOption(spec.key(), attached, spelling));
                    return i + 1;
                }
                if (i + 1 >= argv.size()) {
                    throw new GetoptException(program + ": option '" + spelling + "' requires an argument");
                }
                out.add(new ParsedOption(spec.key(), argv.get(i + 1), spelling));
                return i + 2;
            }
        }
        throw new AssertionError(spec.arg());
    }

    private static OptionSpec resolveLong(String program, OptionTable table, String name, String word)
            throws GetoptException {
        Optional<OptionSpec> exact = table.byLongExact(name);
        if (exact.isPresent()) {
            return exact.get();
        }
        List<OptionSpec> candidates = name.isEmpty() ? List.of() : table.byLongPrefix(name);
        if (candidates.isEmpty()) {
            throw new GetoptException(program + ": unrecognized option '" + word + "'");
        }
        // glibc treats several prefixes of one and the same option (same key, same argument
        // kind) as a unique match; only genuinely different options make it ambiguous. It then
        // lists the first match and those that differ from it, so an alias of the first match
        // is left out (srun's --cpu lists --cpu-bind but not --cpu_bind).
        OptionSpec first = candidates.get(0);
        List<OptionSpec> different = candidates.stream()
                .filter(s -> !s.key().equals(first.key()) || s.arg() != first.arg())
                .toList();
        if (!different.isEmpty()) {
            StringBuilder msg = new StringBuilder(program)
                    .append(": option '")
                    .append(word)
                    .append("' is ambiguous; possibilities: '--")
                    .append(first.longName())
                    .append('\'');
            for (OptionSpec s : different) {
                msg.append(" '--").append(s.longName()).append('\'');
            }
            throw new GetoptException(msg.toString());
        }
        return first;
    }

    private static int parseShortBundle(
            String program, OptionTable table, List<String> argv, int i, List<ParsedOption> out)
            throws GetoptException {
        String word = argv.get(i);
        for (int pos = 1; pos < word.length(); pos++) {
            char c = word.charAt(pos);
            Optional<OptionSpec> found = table.byShort(c);
            if (found.isEmpty() || !found.get().supported()) {
                throw new GetoptException(program + ": invalid option -- '" + c + "'");
            }
            OptionSpec spec = found.get();
            String spelling = "-" + c;
            String rest = word.substring(pos + 1);
            switch (spec.arg()) {
                case NONE -> out.add(new ParsedOption(spec.key(), null, spelling));
                case OPTIONAL -> {
                    out.add(new ParsedOption(spec.key(), rest.isEmpty() ? null : rest, spelling));
                    return i + 1;
                }
                case REQUIRED -> {
                    if (!rest.isEmpty()) {
                        out.add(new ParsedOption(spec.key(), rest, spelling));
                        return i + 1;
                    }
                    if (i + 1 >= argv.size()) {
                        throw new GetoptException(program + ": option requires an argument -- '" + c + "'");
                    }
                    out.add(new ParsedOption(spec.key(), argv.get(i + 1), spelling));
                    return i + 2;
                }
            }
        }
        return i + 1;
    }
}
