package dev.sluice.cli.command.srun;

import java.io.PrintStream;

/**
 * Ctrl-C while a step runs: the signal goes to the step's tasks instead of ending srun, which
 * then reports their exits as usual (Slurm's srun forwards SIGINT the same way).
 */
final class Interrupts implements AutoCloseable {
    private static final int SIGINT = 2;

    private final sun.misc.Signal signal = new sun.misc.Signal("INT");
    private final sun.misc.SignalHandler previous;

    private Interrupts(StepIoServer io, PrintStream err, String message) {
        previous = sun.misc.Signal.handle(signal, s -> {
            err.println(message);
            err.flush();
            io.signalAll(SIGINT);
        });
    }

    static Interrupts forwardTo(StepIoServer io, PrintStream err, String message) {
        return new Interrupts(io, err, message);
    }

    @Override
    public void close() {
        sun.misc.Signal.handle(signal, previous);
    }
}
