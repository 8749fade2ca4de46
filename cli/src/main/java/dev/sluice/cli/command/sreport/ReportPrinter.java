package dev.sluice.cli.command.sreport;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.format.FieldTable;
import java.util.List;

/**
 * Slurm's print_fields for sreport, the layout itself being {@link FieldTable}'s: fixed columns ({@code %*.*s}, right-justified for a positive
 * width, cut to it), {@code -p} (every value followed by {@code |}) or {@code -P} (no final
 * {@code |}); the header line and, in fixed mode, a line of dashes.
 */
final class ReportPrinter {
    /** A column: its title and width (negative: left-justified). */
    static final class Column {
        final String title;
        int width;

        Column(String title, int width) {
            this.title = requireNonNull(title, "title is null");
            this.width = width;
        }
    }

    private final FieldTable.Mode mode;
    private final TimeFormat time;

    ReportPrinter(FieldTable.Mode mode, TimeFormat time) {
        this.mode = requireNonNull(mode, "mode is null");
        this.time = requireNonNull(time, "time is null");
    }

    /** Widens or narrows a usage column to fit {@code maxSeconds}, as sreport_set_usage_col_width. */
    void fitUsage(Column c, long maxSeconds) {
        long order = 100_000_000L;
        // Slurm's uint64 max_order (1e8 * 1e17) wraps around; the same bits here, compared unsigned.
        long maxOrder = order * 100_000_000_000_000_000L;
        int width = 8;
        while (Long.compareUnsigned(order, maxOrder) < 0 && maxSeconds >= order) {
            width++;
            order *= 10;
        }
        c.width = time.withPercent() ? width + 9 : width;
    }

    void header(List<Column> columns, StringBuilder out) {
        new FieldTable(
                        columns.stream()
                                .map(c -> new FieldTable.Column(c.title, c.width))
                                .toList(),
                        mode)
                .header()
                .forEach(line -> out.append(line).append('\n'));
    }

    /** A text cell; null prints blank. Too long a value is cut with {@code +} at its end. */
    void text(Column c, String value, boolean last, StringBuilder out) {
        if (mode != FieldTable.Mode.FIXED) {
            out.append(value == null ? "" : value);
            end(last, out);
            return;
        }
        out.append(FieldTable.fit(value == null ? " " : value, c.width)).append(' ');
    }

    /** A TRES-seconds cell against its total, in the {@code -t} format. */
    void time(Column c, long value, long total, boolean last, StringBuilder out) {
        String v = time.format(value, total);
        if (mode != FieldTable.Mode.FIXED) {
            out.append(v);
            end(last, out);
            return;
        }
        out.append(pad(v, c.width)).append(' ');
    }

    void number(Column c, long value, boolean last, StringBuilder out) {
        if (mode != FieldTable.Mode.FIXED) {
            out.append(value);
            end(last, out);
            return;
        }
        out.append(pad(Long.toString(value), c.width)).append(' ');
    }

    private void end(boolean last, StringBuilder out) {
        if (mode == FieldTable.Mode.PARSABLE || !last) {
            out.append('|');
        }
    }

    /** {@code %*.*s}: cut to the width, right-justified when it is positive. */
    static String pad(String s, int width) {
        int abs = Math.abs(width);
        String cut = s.length() > abs ? s.substring(0, abs) : s;
        String fill = " ".repeat(abs - cut.length());
        return width >= 0 ? fill + cut : cut + fill;
    }
}
