package dev.sluice.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestFieldTable {
    private static final List<FieldTable.Column> COLUMNS =
            List.of(new FieldTable.Column("User", 10), new FieldTable.Column("Account", -10));

    @Test
    void fixedColumnsJustifyAndCutWithAPlus() {
        FieldTable t = new FieldTable(COLUMNS, FieldTable.Mode.FIXED);
        assertThat(t.header()).containsExactly("      User Account    ", "---------- ---------- ");
        assertThat(t.row(List.of("sluiceuser1", "physics"))).isEqualTo("sluiceuse+ physics    ");
        assertThat(t.row(Arrays.asList(null, "x"))).isEqualTo("           x          ");
    }

    @Test
    void parsableEndsEveryFieldParsable2OnlySeparates() {
        assertThat(new FieldTable(COLUMNS, FieldTable.Mode.PARSABLE).row(List.of("root", "")))
                .isEqualTo("root||");
        assertThat(new FieldTable(COLUMNS, FieldTable.Mode.PARSABLE2).header()).containsExactly("User|Account");
        assertThat(new FieldTable(COLUMNS, FieldTable.Mode.PARSABLE2).row(List.of("root", "root")))
                .isEqualTo("root|root");
    }
}
