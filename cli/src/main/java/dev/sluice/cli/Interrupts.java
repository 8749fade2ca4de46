package dev.sluice.cli;

/**
 * Where a command hears the user's Ctrl-C. A standalone command listens for the process's
 * SIGINT; a command run inside the login-node agent hears the interrupts its front end
 * forwards, because the agent's own process signals belong to the agent, not to one caller.
 */
@FunctionalInterface
public interface Interrupts {
    /** Calls {@code handler} on every interrupt until the returned registration is closed. */
    Registration onInterrupt(Runnable handler);

    /** An active listener; closing it restores what was there before. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** The JVM's own SIGINT (standalone commands). */
    Interrupts PROCESS = handler -> {
        sun.misc.Signal signal = new sun.misc.Signal("INT");
        sun.misc.SignalHandler previous = sun.misc.Signal.handle(signal, s -> handler.run());
        return () -> sun.misc.Signal.handle(signal, previous);
    };
}
