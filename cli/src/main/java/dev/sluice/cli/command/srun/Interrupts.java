package dev.sluice.cli.command.srun;

import dev.sluice.cli.Invocation;
import java.io.PrintStream;

/**
 * Ctrl-C while a step runs: the signal goes to the step's tasks instead of ending srun, which
 * then reports their exits as usual (Slurm's srun forwards SIGINT the same way).
 */
final class Interrupts {
    private static final int SIGINT = 2;

    private Interrupts() {}

    static dev.sluice.cli.Interrupts.Registration forwardTo(
            Invocation inv, StepIoServer io, PrintStream err, String message) {
        return inv.interrupts().onInterrupt(() -> {
            err.println(message);
            err.flush();
            io.signalAll(SIGINT);
        });
    }
}
