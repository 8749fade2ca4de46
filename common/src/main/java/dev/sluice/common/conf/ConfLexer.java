package dev.sluice.common.conf;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Slurm's configuration-file syntax, shared by {@code slurm.conf}, {@code gres.conf} and {@code
 * cgroup.conf}:
 *
 * <ul>
 *   <li>{@code #} starts a comment to the end of the line, except inside double quotes or when
 *       written {@code \#};
 *   <li>a line ending in {@code \} continues on the next line;
 *   <li>a line holds {@code Key=Value} pairs separated by white space (the readers allow several
 *       only on lines that define something, such as {@code NodeName=}); white space may
 *       surround the {@code =}; a value is either a run of non-blank characters or a double-quoted
 *       string (quotes removed); the key may carry an operator ({@code Key+=Value});
 *   <li>a pair without a value ({@code SlurmctldPidFile=}) or any other leftover text is a parse
 *       error, as in Slurm 22.05 ({@code Parse error in file ... line 12: "SlurmctldPidFile="}).
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
final class ConfLexer {

    private static final Pattern PAIR =
            Pattern.compile("\\s*([A-Za-z0-9_.]+)\\s*([-*+/]?)=\\s*(?:\"([^\"]*)\"|(\\S+))(?=\\s|$)");

    private ConfLexer() {}

    static List<LogicalLine> logicalLines(String text, String file) {
        List<LogicalLine> out = new ArrayList<>();
        String[] physical = text.split("\n", -1);
        StringBuilder pending = null;
        int pendingLine = 0;
        for (int i = 0; i < physical.length; i++) {
            String line = stripComment(stripCr(physical[i]));
            String trimmed = line.stripTrailing();
            boolean continues = trimmed.endsWith("\\") && !trimmed.endsWith("\\\\");
            String content = continues ? trimmed.substring(0, trimmed.length() - 1) : line;
            if (pending == null) {
                pending = new StringBuilder();
                pendingLine = i + 1;
            } else {
                pending.append(' ');
            }
            pending.append(content);
            if (!continues || i == physical.length - 1) {
                String joined = pending.toString().replace("\\#", "#");
                if (!joined.isBlank()) {
                    out.add(new LogicalLine(file, pendingLine, joined.strip()));
                }
                pending = null;
            }
        }
        return out;
    }

    private static String stripCr(String s) {
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    private static String stripComment(String s) {
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '#' && !quoted && (i == 0 || s.charAt(i - 1) != '\\')) {
                return s.substring(0, i);
            }
        }
        return s;
    }

    /** Splits a logical line into pairs; anything that is not a pair is a located parse error. */
    static List<ConfEntry> pairs(LogicalLine line) throws ConfigException {
        List<ConfEntry> out = new ArrayList<>();
        String text = line.text();
        Matcher m = PAIR.matcher(text);
        int pos = 0;
        while (pos < text.length()) {
            if (text.substring(pos).isBlank()) {
                break;
            }
            m.region(pos, text.length());
            if (!m.lookingAt()) {
                String rest = text.substring(pos).strip();
                throw new ConfigException(line.file(), line.line(), null, "Parse error: \"" + rest + "\"" + hint(rest));
            }
            String value = m.group(3) != null ? m.group(3) : m.group(4);
            out.add(new ConfEntry(m.group(1), m.group(2), value, line.file(), line.line()));
            pos = m.end();
        }
        return out;
    }

    private static String hint(String rest) {
        if (rest.matches("[A-Za-z0-9_.]+\\s*[-*+/]?=\\s*(\\S.*)?") && !rest.contains("\"")) {
            return " (the key has no value)";
        }
        if (rest.contains("\"")) {
            return " (unbalanced or misplaced quote)";
        }
        return " (expected Key=Value)";
    }
}
