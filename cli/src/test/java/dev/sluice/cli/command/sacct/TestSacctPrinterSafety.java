package dev.sluice.cli.command.sacct;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.format.FieldTable;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.protocol.v1.AccountedJob;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job's text never makes a line or a field of its own in sacct. Slurm 22.05 prints a newline
 * in a job name raw in sacct and sacct -P (seen 2026-12-02), and a '|' in a name as a '|';
 * Sluice's controller refuses the first, and what accounting kept from before is shown safely.
 */
class TestSacctPrinterSafety {
    private static String print(FieldTable.Mode mode, String delimiter, String name) {
        AccountedJob job = AccountedJob.newBuilder()
                .setJobId(7)
                .setName(name)
                .setUserName("mallory")
                .build();
        SacctPrinter printer = new SacctPrinter(
                List.of(SacctColumn.parse("jobid"), SacctColumn.parse("jobname"), SacctColumn.parse("user")),
                mode,
                delimiter,
                new SacctContext(ZoneOffset.UTC, 0, TestingInvocations.USERS, (char) 0));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            printer.row(new SacctRow(job, null), out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aNewlineKeptFromBeforeIsShownAsAQuestionMark() {
        assertThat(print(FieldTable.Mode.PARSABLE2, "|", "x\n8|alice")).isEqualTo("7|x?8?alice|mallory\n");
        assertThat(print(FieldTable.Mode.FIXED, "|", "a\rb"))
                .startsWith("7 ")
                .contains("a?b")
                .doesNotContain("\r");
    }

    @Test
    void theDelimiterInsideAValueCannotMakeAField() {
        assertThat(print(FieldTable.Mode.PARSABLE2, "|", "x|COMPLETED")).isEqualTo("7|x?COMPLETED|mallory\n");
        assertThat(print(FieldTable.Mode.PARSABLE, ",", "a,b|c")).isEqualTo("7,a?b|c,mallory,\n");
        // Fixed width has no delimiter to protect: the name is as it was.
        assertThat(print(FieldTable.Mode.FIXED, "|", "a|b")).contains("a|b");
    }
}
