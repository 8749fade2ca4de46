package dev.sluice.cli.format;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Slurm's print_fields layout (src/common/print_fields.c), which sacct, sacctmgr and sreport
 * share: in fixed mode a width &gt; 0 right-justifies, &lt; 0 left-justifies, a value longer than
 * its column is cut to width - 1 plus {@code +}, a title is cut without one, and a title row is
 * followed by dashes; {@code -p} ends every field with the delimiter, {@code -P} only separates.
 * Pure: returns lines without their newline.
 */
public final class FieldTable {
    /** A column: its title and width (negative: left-justified). */
    public record Column(String title, int width) {
        public Column {
            requireNonNull(title, "title is null");
        }
    }

    public enum Mode {
        FIXED,
        /** {@code -p}: every field ends with the delimiter. */
        PARSABLE,
        /** {@code -P}: the delimiter between fields only. */
        PARSABLE2
    }

    private final List<Column> columns;
    private final Mode mode;
    private final String delimiter;

    public FieldTable(List<Column> columns, Mode mode) {
        this(columns, mode, "|");
    }

    public FieldTable(List<Column> columns, Mode mode, String delimiter) {
        this.columns = List.copyOf(columns);
        this.mode = requireNonNull(mode, "mode is null");
        this.delimiter = requireNonNull(delimiter, "delimiter is null");
    }

    /** The title line and, in fixed mode, the line of dashes. */
    public List<String> header() {
        StringBuilder titles = new StringBuilder();
        StringBuilder dashes = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (mode == Mode.FIXED) {
                int w = Math.abs(c.width());
                String t = c.title().length() > w ? c.title().substring(0, w) : c.title();
                titles.append(pad(t, c.width())).append(' ');
                dashes.append("-".repeat(w)).append(' ');
            } else {
                titles.append(c.title());
                separator(titles, i);
            }
        }
        return mode == Mode.FIXED ? List.of(titles.toString(), dashes.toString()) : List.of(titles.toString());
    }

    /** One row; a null value prints blank. */
    public String row(List<String> values) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            String v = values.get(i) == null ? "" : values.get(i);
            if (mode == Mode.FIXED) {
                line.append(fit(v, columns.get(i).width())).append(' ');
            } else {
                line.append(v);
                separator(line, i);
            }
        }
        return line.toString();
    }

    private void separator(StringBuilder s, int i) {
        if (mode == Mode.PARSABLE || i < columns.size() - 1) {
            s.append(delimiter);
        }
    }

    /** Cut to the width with a {@code +} marking the cut, then padded. */
    public static String fit(String value, int width) {
        int w = Math.abs(width);
        if (value.length() > w) {
            value = w == 0 ? "" : value.substring(0, w - 1) + "+";
        }
        return pad(value, width);
    }

    /** Padded to the width: on the left for a positive one, on the right for a negative one. */
    public static String pad(String value, int width) {
        int w = Math.abs(width);
        if (value.length() >= w) {
            return value;
        }
        String spaces = " ".repeat(w - value.length());
        return width > 0 ? spaces + value : value + spaces;
    }
}
