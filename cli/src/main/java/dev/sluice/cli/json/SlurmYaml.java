package dev.sluice.cli.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code --yaml} form of a command's {@code --json} document, as Slurm 22.05's data_parser
 * writes it through libyaml: every node tagged ({@code !!str}, {@code !!int}, {@code !!map}...),
 * block style, a sequence's items at its key's indentation, floats with six decimals, and the
 * {@code %YAML 1.1} header and {@code ...} end marker, empty strings as null (observed on
 * squeue --yaml against --json).
 */
public final class SlurmYaml {
    private SlurmYaml() {}

    private record Num(String text) {}

    /** The YAML document for {@code json}, a document this package's writer produced. */
    public static String fromJson(String json) {
        Parser p = new Parser(json);
        Object root = p.value();
        StringBuilder out = new StringBuilder("%YAML 1.1\n---");
        node(out, root, 0, true);
        return out.append("...\n").toString();
    }

    /** Writes {@code v} after a key or dash already on the line; nested lines at {@code indent}. */
    private static void node(StringBuilder out, Object v, int indent, boolean inline) {
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                out.append(" !!map {}\n");
                return;
            }
            out.append(" !!map\n");
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.append(" ".repeat(indent))
                        .append("!!str ")
                        .append(scalar((String) e.getKey()))
                        .append(':');
                Object child = e.getValue();
                // A block sequence under a key sits at the key's own indentation.
                node(out, child, child instanceof List<?> ? indent : indent + 2, false);
            }
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                out.append(" !!seq []\n");
                return;
            }
            out.append(" !!seq\n");
            for (Object item : l) {
                out.append(" ".repeat(indent)).append('-');
                node(out, item, indent + 2, false);
            }
        } else if (v == null || "".equals(v)) {
            // An empty string is written as null (observed: "" in --json, null in --yaml).
            out.append(" !!null null\n");
        } else if (v instanceof Boolean b) {
            out.append(" !!bool ").append(b).append('\n');
        } else if (v instanceof Num n) {
            boolean floating =
                    n.text().contains(".") || n.text().contains("e") || n.text().contains("E");
            out.append(
                            floating
                                    ? " !!float " + String.format(Locale.ROOT, "%f", Double.parseDouble(n.text()))
                                    : " !!int " + n.text())
                    .append('\n');
        } else {
            out.append(" !!str ").append(scalar((String) v)).append('\n');
        }
    }

    /** libyaml's choice: plain when nothing in the text could be read otherwise, else quoted. */
    static String scalar(String s) {
        if (s.isEmpty()) {
            return "''";
        }
        boolean printable = s.chars().allMatch(c -> c >= 0x20 && c != 0x7f);
        if (!printable) {
            StringBuilder q = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> q.append("\\\"");
                    case '\\' -> q.append("\\\\");
                    case '\n' -> q.append("\\n");
                    case '\t' -> q.append("\\t");
                    case '\r' -> q.append("\\r");
                    default -> {
                        if (c < 0x20 || c == 0x7f) {
                            q.append(String.format(Locale.ROOT, "\\x%02X", (int) c));
                        } else {
                            q.append(c);
                        }
                    }
                }
            }
            return q.append('"').toString();
        }
        boolean plain = "-?:,[]{}#&*!|>'\"%@`".indexOf(s.charAt(0)) < 0
                && !s.startsWith(" ")
                && !s.endsWith(" ")
                && !s.contains(": ")
                && !s.contains(" #")
                && !s.endsWith(":");
        return plain ? s : "'" + s.replace("'", "''") + "'";
    }

    /** Just enough JSON for the documents JsonWriter writes. */
    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            char c = s.charAt(i);
            switch (c) {
                case '{' -> {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    skip();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        skip();
                        String key = string();
                        skip();
                        i++; // ':'
                        m.put(key, value());
                        skip();
                        if (s.charAt(i++) == '}') {
                            return m;
                        }
                    }
                }
                case '[' -> {
                    i++;
                    List<Object> l = new ArrayList<>();
                    skip();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        skip();
                        if (s.charAt(i++) == ']') {
                            return l;
                        }
                    }
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    if (s.startsWith("true", i)) {
                        i += 4;
                        return Boolean.TRUE;
                    }
                    if (s.startsWith("false", i)) {
                        i += 5;
                        return Boolean.FALSE;
                    }
                    if (s.startsWith("null", i)) {
                        i += 4;
                        return null;
                    }
                    int start = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    return new Num(s.substring(start, i));
                }
            }
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            i++; // opening quote
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> b.append(e);
                }
            }
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
