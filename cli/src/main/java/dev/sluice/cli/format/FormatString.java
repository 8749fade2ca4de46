package dev.sluice.cli.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Parser of Slurm's {@code -o} format strings.
 *
 * <p>{@code %%} is a literal percent sign. An unknown letter is reported through
 * {@code invalid} (squeue then prints {@code squeue: error: Invalid job format specification: X})
 * and, as Slurm does, the characters are kept as literal text: {@code %-12i} prints as
 * {@code %-12i}, because {@code -} is read as the letter and is not one.
 */
public final class FormatString {
    private FormatString() {}

    public static List<FormatToken> parse(String format, Set<Character> letters, Consumer<Character> invalid) {
        List<FormatToken> tokens = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c != '%') {
                literal.append(c);
                i++;
                continue;
            }
            if (i + 1 < format.length() && format.charAt(i + 1) == '%') {
                literal.append('%');
                i += 2;
                continue;
            }
            int j = i + 1;
            boolean right = false;
            if (j < format.length() && format.charAt(j) == '.') {
                right = true;
                j++;
            }
            int width = 0;
            while (j < format.length() && Character.isDigit(format.charAt(j))) {
                width = Math.min(width * 10 + (format.charAt(j) - '0'), 10_000);
                j++;
            }
            if (j >= format.length()) {
                literal.append(format, i, format.length());
                break;
            }
            char letter = format.charAt(j);
            if (!letters.contains(letter)) {
                invalid.accept(letter);
                literal.append(format, i, j + 1);
                i = j + 1;
                continue;
            }
            if (!literal.isEmpty()) {
                tokens.add(new FormatToken.Literal(literal.toString()));
                literal.setLength(0);
            }
            tokens.add(new FormatToken.Field(letter, width, right));
            i = j + 1;
        }
        if (!literal.isEmpty()) {
            tokens.add(new FormatToken.Literal(literal.toString()));
        }
        return tokens;
    }
}
