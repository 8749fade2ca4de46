package dev.sluice.cli;

/**
 * Where a command hears the user's Ctrl-C (and the caller's terminal changing size). A
 * standalone command listens for the process's SIGINT (SIGWINCH); a command run inside the
 * login-node agent hears the signals its front end forwards, because the agent's own process
 * signals belong to the agent, not to one caller.
 */
@FunctionalInterface
public interface Interrupts {
    /** Calls {@code handler} on every interrupt until the returned registration is closed. */
    Registration onInterrupt(Runnable handler);

    /**
     * Calls {@code handler} whenever the caller's terminal changes size (SIGWINCH), until the
     * registration is closed; {@code srun --pty} passes the new size on. The handler must not
     * wait for the caller's side: it runs where the caller's messages are read. None by default.
     */
    default Registration onResize(Runnable handler) {
        return () -> {};
    }

    /** An active listener; closing it restores what was there before. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** The JVM's own SIGINT and SIGWINCH (standalone commands). */
    Interrupts PROCESS = new Interrupts() {
        @Override
        public Registration onInterrupt(Runnable handler) {
            return on("INT", handler);
        }

        @Override
        public Registration onResize(Runnable handler) {
            return on("WINCH", handler);
        }

        private Registration on(String name, Runnable handler) {
            sun.misc.Signal signal = new sun.misc.Signal(name);
            sun.misc.SignalHandler previous = sun.misc.Signal.handle(signal, s -> handler.run());
            return () -> sun.misc.Signal.handle(signal, previous);
        }
    };
}
