package dev.sluice.cli.command.sreport;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.time.SlurmTimestamp;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.function.Function;

/**
 * What every report shares: the period, the printer, the TRES reported ({@code -T}, else cpu),
 * whether headers are printed, and how a login maps to its GECOS name.
 */
record ReportContext(
        ReportWindow window,
        ZoneId zone,
        TimeFormat time,
        ReportPrinter printer,
        boolean header,
        List<String> tres,
        boolean tresGiven,
        Function<String, String> properName) {
    ReportContext {
        requireNonNull(window, "window is null");
        requireNonNull(zone, "zone is null");
        requireNonNull(time, "time is null");
        requireNonNull(printer, "printer is null");
        tres = List.copyOf(tres);
        requireNonNull(properName, "properName is null");
    }

    static final String RULE = "-".repeat(80);

    /** A time as the report's header prints it. */
    String stamp(long epochSeconds) {
        return SlurmTimestamp.format(Instant.ofEpochSecond(epochSeconds), zone);
    }

    /** The block above the columns: rule, title with the period, units, rule. */
    void banner(String title, boolean withSeconds, StringBuilder out) {
        if (!header) {
            return;
        }
        out.append(RULE).append('\n');
        out.append(title)
                .append(' ')
                .append(stamp(window.start()))
                .append(" - ")
                .append(stamp(window.end() - 1));
        if (withSeconds) {
            out.append(" (").append(window.seconds()).append(" secs)");
        }
        out.append('\n');
        if (time == TimeFormat.PERCENT) {
            out.append("Usage reported in ").append(time.words).append('\n');
        } else {
            out.append("Usage reported in ")
                    .append(tresGiven ? "TRES" : "CPU")
                    .append(' ')
                    .append(time.words)
                    .append('\n');
        }
        out.append(RULE).append('\n');
    }

    void columns(List<ReportPrinter.Column> columns, StringBuilder out) {
        if (header) {
            printer.header(columns, out);
        }
    }

    /** How one cell of a report's line is printed. */
    interface Cell<L> {
        void print(L line, String tres, ReportField field, ReportPrinter.Column col, boolean last);
    }

    /** A printed line for each line and each TRES reported, each column's cell printed by {@code cell}. */
    <L> void lines(List<L> lines, List<ReportField.Chosen> cols, StringBuilder out, Cell<L> cell) {
        for (L l : lines) {
            for (String t : tres) {
                for (int i = 0; i < cols.size(); i++) {
                    cell.print(l, t, cols.get(i).field(), cols.get(i).column(), i == cols.size() - 1);
                }
                out.append('\n');
            }
        }
    }
}
