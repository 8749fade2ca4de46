package dev.sluice.cli.command.sacct;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.format.FieldTable;
import dev.sluice.common.text.ControlCharacters;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Lays rows out as sacct does, in print_fields' layout ({@link FieldTable}). Fixed width: each column padded to its width and followed by one
 * space, a longer value cut to width - 1 characters plus {@code +}, titles cut without the
 * {@code +}, a line of dashes under the titles. Parsable ({@code -p}): values joined by the
 * delimiter with one after the last; {@code -P}: without that last one; nothing is cut.
 *
 * <p>Unlike Slurm, a value never ends a line or a field early: control characters (kept in
 * accounting from before the controller refused them) print as {@code ?}, and so does the
 * delimiter inside a value in parsable output (docs/security.md, "Hardened inputs").
 */
final class SacctPrinter {
    private final List<SacctColumn> columns;
    private final FieldTable.Mode mode;
    private final String delimiter;
    private final SacctContext context;

    SacctPrinter(List<SacctColumn> columns, FieldTable.Mode mode, String delimiter, SacctContext context) {
        this.columns = List.copyOf(columns);
        this.mode = requireNonNull(mode, "mode is null");
        this.delimiter = requireNonNull(delimiter, "delimiter is null");
        this.context = requireNonNull(context, "context is null");
    }

    private FieldTable table() {
        return new FieldTable(
                columns.stream()
                        .map(c -> new FieldTable.Column(c.field().title, c.width()))
                        .toList(),
                mode,
                delimiter);
    }

    void header(PrintStream out) {
        table().header().forEach(out::println);
    }

    void row(SacctRow row, PrintStream out) {
        List<String> values = new ArrayList<>();
        for (SacctColumn c : columns) {
            String v = ControlCharacters.printable(c.field().value(row, context));
            // A value holding the delimiter would make fields of its own, which a script
            // reading the line would take for another column (another user, another state).
            values.add(mode == FieldTable.Mode.FIXED || delimiter.isEmpty() ? v : v.replace(delimiter, "?"));
        }
        out.println(table().row(values));
    }
}
