package dev.sluice.noded.server;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The signal that starts drain-and-exit: SIGUSR1. Not SIGUSR2, which HotSpot uses itself to
 * suspend threads: with Java Flight Recorder sampling (JFR, {@code jcmd JFR.start}) a SIGUSR2
 * handler fired about 50 times a second (measured here: 201 times in 4 s), so profiling a node
 * daemon drained its node; where the handler replaced the JVM's own, sampling hung instead. The
 * first signal starts the drain; more are ignored, since the drain is already under way.
 */
final class DrainSignal {
    static final String NAME = "USR1";

    private DrainSignal() {}

    /** Runs {@code drain} on the first SIGUSR1 this process receives. */
    static void install(Runnable drain) {
        AtomicBoolean started = new AtomicBoolean();
        sun.misc.Signal.handle(new sun.misc.Signal(NAME), sig -> {
            if (started.compareAndSet(false, true)) {
                drain.run();
            }
        });
    }
}
