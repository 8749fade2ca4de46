package dev.sluice.cli.command.sacctmgr;

import java.util.ArrayList;
import java.util.List;

/** Prints a listing with the entity's default columns or those of {@code format=}. */
final class SacctmgrList {
    private SacctmgrList() {}

    static <T> void print(Session s, List<AssocFields.Field<T>> fields, List<String> format, List<T> rows) {
        print(s, fields, fields, format, rows);
    }

    /** @param defaults the columns without format=; {@code fields} all that format= may name */
    static <T> void print(
            Session s,
            List<AssocFields.Field<T>> defaults,
            List<AssocFields.Field<T>> fields,
            List<String> format,
            List<T> rows) {
        List<AssocFields.Field<T>> chosen = new ArrayList<>();
        List<FieldTable.Column> columns = new ArrayList<>();
        if (format.isEmpty()) {
            chosen.addAll(defaults);
            defaults.forEach(f -> columns.add(f.column()));
        } else {
            for (String item : format) {
                int pct = item.indexOf('%');
                String name = pct < 0 ? item : item.substring(0, pct);
                AssocFields.Field<T> f = AssocFields.byName(fields, name)
                        .orElseThrow(() -> new IllegalArgumentException(" Unknown field '" + name + "'"));
                int width = f.width();
                if (pct >= 0) {
                    try {
                        width = Integer.parseInt(item.substring(pct + 1));
                    } catch (NumberFormatException e) {
                        width = 0;
                    }
                }
                chosen.add(f);
                columns.add(new FieldTable.Column(f.title(), width));
            }
        }
        FieldTable table = new FieldTable(columns, s.mode);
        if (s.header) {
            table.header(s.out);
        }
        for (T row : rows) {
            List<String> values = new ArrayList<>();
            chosen.forEach(f -> values.add(f.value().apply(row)));
            table.row(values, s.out);
        }
    }
}
