package dev.sluice.cli.command.scancel;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Signal names and numbers as {@code scancel -s} takes them (Linux numbering). */
public final class Signals {
    private static final Map<String, Integer> BY_NAME = Map.ofEntries(
            Map.entry("HUP", 1),
            Map.entry("INT", 2),
            Map.entry("QUIT", 3),
            Map.entry("ABRT", 6),
            Map.entry("KILL", 9),
            Map.entry("USR1", 10),
            Map.entry("USR2", 12),
            Map.entry("PIPE", 13),
            Map.entry("ALRM", 14),
            Map.entry("TERM", 15),
            Map.entry("CHLD", 17),
            Map.entry("CONT", 18),
            Map.entry("STOP", 19),
            Map.entry("TSTP", 20),
            Map.entry("TTIN", 21),
            Map.entry("TTOU", 22),
            Map.entry("URG", 23),
            Map.entry("XCPU", 24),
            Map.entry("XFSZ", 25),
            Map.entry("VTALRM", 26),
            Map.entry("PROF", 27),
            Map.entry("WINCH", 28));

    private Signals() {}

    /** The name of a signal number ({@code USR1} for 10), empty for one without a name here. */
    public static Optional<String> name(int number) {
        return BY_NAME.entrySet().stream()
                .filter(e -> e.getValue() == number)
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** {@code USR1}, {@code SIGUSR1}, {@code usr1} or {@code 10}; empty when unknown. */
    public static Optional<Integer> parse(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        if (!t.isEmpty() && t.length() < 4 && t.chars().allMatch(Character::isDigit)) {
            int n = Integer.parseInt(t);
            return n > 0 && n < 65 ? Optional.of(n) : Optional.empty();
        }
        if (t.startsWith("SIG")) {
            t = t.substring(3);
        }
        return Optional.ofNullable(BY_NAME.get(t));
    }
}
