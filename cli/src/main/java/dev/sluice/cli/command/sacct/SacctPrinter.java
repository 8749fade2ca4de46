package dev.sluice.cli.command.sacct;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.text.ControlCharacters;
import java.io.PrintStream;
import java.util.List;

/**
 * Lays rows out as sacct does. Fixed width: each column padded to its width and followed by one
 * space, a longer value cut to width - 1 characters plus {@code +}, titles cut without the
 * {@code +}, a line of dashes under the titles. Parsable ({@code -p}): values joined by the
 * delimiter with one after the last; {@code -P}: without that last one; nothing is cut.
 *
 * <p>Unlike Slurm, a value never ends a line or a field early: control characters (kept in
 * accounting from before the controller refused them) print as {@code ?}, and so does the
 * delimiter inside a value in parsable output (docs/security.md, "Hardened inputs").
 */
final class SacctPrinter {
    enum Mode {
        FIXED,
        PARSABLE,
        PARSABLE2
    }

    private final List<SacctColumn> columns;
    private final Mode mode;
    private final String delimiter;
    private final SacctContext context;

    SacctPrinter(List<SacctColumn> columns, Mode mode, String delimiter, SacctContext context) {
        this.columns = List.copyOf(columns);
        this.mode = requireNonNull(mode, "mode is null");
        this.delimiter = requireNonNull(delimiter, "delimiter is null");
        this.context = requireNonNull(context, "context is null");
    }

    void header(PrintStream out) {
        StringBuilder titles = new StringBuilder();
        StringBuilder dashes = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            SacctColumn c = columns.get(i);
            if (mode == Mode.FIXED) {
                int w = Math.abs(c.width());
                String t = c.field().title;
                titles.append(pad(t.length() > w ? t.substring(0, w) : t, c.width()))
                        .append(' ');
                dashes.append("-".repeat(w)).append(' ');
            } else {
                titles.append(c.field().title);
                separator(titles, i);
            }
        }
        out.println(titles);
        if (mode == Mode.FIXED) {
            out.println(dashes);
        }
    }

    void row(SacctRow row, PrintStream out) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            SacctColumn c = columns.get(i);
            String v = ControlCharacters.printable(c.field().value(row, context));
            if (mode == Mode.FIXED) {
                line.append(fit(v, c.width())).append(' ');
            } else {
                // A value holding the delimiter would make fields of its own, which a script
                // reading the line would take for another column (another user, another state).
                line.append(delimiter.isEmpty() ? v : v.replace(delimiter, "?"));
                separator(line, i);
            }
        }
        out.println(line);
    }

    private void separator(StringBuilder s, int i) {
        if (mode == Mode.PARSABLE || i < columns.size() - 1) {
            s.append(delimiter);
        }
    }

    /** Cut to width with a {@code +} marking the cut, then pad. */
    static String fit(String value, int width) {
        int w = Math.abs(width);
        if (value.length() > w) {
            value = w == 0 ? "" : value.substring(0, w - 1) + "+";
        }
        return pad(value, width);
    }

    private static String pad(String value, int width) {
        int w = Math.abs(width);
        if (value.length() >= w) {
            return value;
        }
        String spaces = " ".repeat(w - value.length());
        return width > 0 ? spaces + value : value + spaces;
    }
}
