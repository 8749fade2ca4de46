package dev.sluice.cli.command.srun;

import dev.sluice.cli.Interrupts;
import dev.sluice.cli.Invocation;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code srun --pty}: each time srun's terminal changes size (SIGWINCH), its new size goes to
 * task 0's terminal, as Slurm's srun passes it on. The size is read on a thread of its own: the
 * signal arrives where the caller's messages are read, and reading the size asks the caller's
 * side, whose answer comes the same way. Resizes that come while one is read are one more read.
 * Closing waits for the read under way, so that nothing asks the caller's side after the step.
 */
final class TerminalResizes implements AutoCloseable {
    private final PtyTerminal terminal;
    private final StepIoServer server;
    private final AtomicInteger asked = new AtomicInteger();
    private final Interrupts.Registration registration;
    private Thread reader;

    private TerminalResizes(Invocation inv, PtyTerminal terminal, StepIoServer server) {
        this.terminal = terminal;
        this.server = server;
        this.registration = inv.interrupts().onResize(this::resized);
    }

    /** Resizes passed on while the step runs; nothing without a terminal. */
    static TerminalResizes forward(Invocation inv, Optional<PtyTerminal> terminal, StepIoServer server) {
        return terminal.map(t -> new TerminalResizes(inv, t, server)).orElse(null);
    }

    private synchronized void resized() {
        if (asked.getAndIncrement() == 0) {
            reader = Thread.ofVirtual().name("srun-resize").start(this::passOn);
        }
    }

    private void passOn() {
        do {
            asked.set(1);
            terminal.currentSize().ifPresent(server::resize);
        } while (asked.decrementAndGet() > 0);
    }

    @Override
    public void close() {
        registration.close();
        Thread running;
        synchronized (this) {
            running = reader;
        }
        if (running != null) {
            try {
                running.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
