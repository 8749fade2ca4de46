package dev.sluice.cli.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code -O/--Format} language squeue and sinfo share: comma-separated field names, each
 * optionally {@code :[.]width[suffix]} ({@code .} right-justifies; at most five width digits are
 * read, the rest is printed after the field). Names are case-insensitive and map to the letter
 * of the same field in the {@code -o} language, so both render through one formatter.
 */
public final class FormatNames {
    private FormatNames() {}

    /**
     * @param names lower-case field name to its {@code -o} letter
     * @param defaultWidth the width of a field given without one (20 in both commands)
     * @param invalid told each name that is not in {@code names}; that item is skipped
     */
    public static List<FormatToken> parse(
            String spec, Map<String, Character> names, int defaultWidth, Consumer<String> invalid) {
        List<FormatToken> tokens = new ArrayList<>();
        for (String item : spec.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            int colon = item.indexOf(':');
            String name = (colon >= 0 ? item.substring(0, colon) : item).strip();
            Character letter = names.get(name.toLowerCase(Locale.ROOT));
            if (letter == null) {
                invalid.accept(name);
                continue;
            }
            int width = defaultWidth;
            boolean right = false;
            String suffix = "";
            if (colon >= 0) {
                String rest = item.substring(colon + 1);
                int i = 0;
                if (i < rest.length() && rest.charAt(i) == '.') {
                    right = true;
                    i++;
                }
                int start = i;
                while (i < rest.length() && Character.isDigit(rest.charAt(i)) && i - start < 5) {
                    i++;
                }
                if (i > start) {
                    width = Integer.parseInt(rest.substring(start, i));
                }
                suffix = rest.substring(i);
            }
            tokens.add(new FormatToken.Field(letter, width, right));
            if (!suffix.isEmpty()) {
                tokens.add(new FormatToken.Literal(suffix));
            }
        }
        return tokens;
    }
}
