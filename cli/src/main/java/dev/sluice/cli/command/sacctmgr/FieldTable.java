package dev.sluice.cli.command.sacctmgr;

import java.io.PrintStream;
import java.util.List;

/**
 * Slurm's print_fields layout, which sacctmgr shares with sacct: width &gt; 0 right-justifies,
 * &lt; 0 left-justifies, a value longer than its column is cut to width - 1 plus {@code +}, a
 * title is cut without one; {@code -p} ends every field with {@code |}, {@code -P} separates.
 */
final class FieldTable {
    record Column(String title, int width) {}

    enum Mode {
        FIXED,
        PARSABLE,
        PARSABLE2
    }

    private final List<Column> columns;
    private final Mode mode;

    FieldTable(List<Column> columns, Mode mode) {
        this.columns = List.copyOf(columns);
        this.mode = mode;
    }

    void header(PrintStream out) {
        StringBuilder titles = new StringBuilder();
        StringBuilder dashes = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            int w = Math.abs(c.width());
            if (mode == Mode.FIXED) {
                String t = c.title().length() > w ? c.title().substring(0, w) : c.title();
                titles.append(pad(t, c.width())).append(' ');
                dashes.append("-".repeat(w)).append(' ');
            } else {
                titles.append(c.title());
                separator(titles, i);
            }
        }
        out.println(titles);
        if (mode == Mode.FIXED) {
            out.println(dashes);
        }
    }

    void row(List<String> values, PrintStream out) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            String v = values.get(i);
            int width = columns.get(i).width();
            if (mode == Mode.FIXED) {
                int w = Math.abs(width);
                if (v.length() > w) {
                    v = w == 0 ? "" : v.substring(0, w - 1) + "+";
                }
                line.append(pad(v, width)).append(' ');
            } else {
                line.append(v);
                separator(line, i);
            }
        }
        out.println(line);
    }

    private void separator(StringBuilder s, int i) {
        if (mode == Mode.PARSABLE || i < columns.size() - 1) {
            s.append('|');
        }
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
