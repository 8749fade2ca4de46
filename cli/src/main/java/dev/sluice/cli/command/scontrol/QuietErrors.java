package dev.sluice.cli.command.scontrol;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The error stream of {@code scontrol -Q}: Slurm's scontrol guards its perror-style lines
 * ({@code slurm_load_jobs error: ...}, {@code Invalid job id specified for job N}, {@code too
 * few arguments for keyword:hold}) with its quiet flag, while what it logs through
 * {@code error()} ({@code scontrol: error: ...}) always shows. Lines are passed or dropped whole.
 */
final class QuietErrors extends OutputStream {
    private static final String ALWAYS = ScontrolCommand.PROG + ": error: ";
    private final PrintStream target;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    private QuietErrors(PrintStream target) {
        this.target = target;
    }

    /** {@code err} itself unless quiet. */
    static PrintStream of(PrintStream err, boolean quiet) {
        return quiet ? new PrintStream(new QuietErrors(err), true, StandardCharsets.UTF_8) : err;
    }

    @Override
    public void write(int b) {
        line.write(b);
        if (b == '\n') {
            String text = line.toString(StandardCharsets.UTF_8);
            if (text.startsWith(ALWAYS)) {
                target.print(text);
                target.flush();
            }
            line.reset();
        }
    }
}
