package dev.sluice.cli.command.sacct;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.format.FormatItem;

/**
 * A field with the width it is printed at: {@code -o JobName%30} gives 30, right-justified,
 * {@code %-30} left-justified; without a width the field's own (signed) default applies.
 */
record SacctColumn(SacctField field, int width) {
    SacctColumn {
        requireNonNull(field, "field is null");
    }

    static SacctColumn of(SacctField field) {
        return new SacctColumn(field, field.width);
    }

    /**
     * Parses one {@code -o} item, {@code name[%[-]width]}.
     *
     * @throws IllegalArgumentException with sacct's message for an unknown field
     */
    static SacctColumn parse(String item) {
        FormatItem parsed = FormatItem.parse(item);
        String name = parsed.name();
        // sacct reads the number with atoi: garbage reads as 0, an empty column.
        Integer width = parsed.hasWidth() ? parsed.width() : null;
        String wanted = name;
        SacctField field = SacctField.byName(name)
                .orElseThrow(() -> new IllegalArgumentException("Invalid field requested: \"" + wanted + "\""));
        return new SacctColumn(field, width == null ? field.width : width);
    }
}
