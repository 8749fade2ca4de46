package dev.sluice.packaging.sim;

import dev.sluice.ctld.loop.ControllerLoop;

/**
 * Delivers the simulated nodes' reports to the controller as they come, as a node daemon's
 * registrar sends its outbox, on a thread of its own. Built once the controller is running,
 * from the outbox the nodes were built with, so neither side is wired after construction.
 */
final class Registrar implements AutoCloseable {
    private final ReportOutbox outbox;
    private final ControllerLoop loop;
    private final Thread thread;

    private Registrar(ReportOutbox outbox, ControllerLoop loop) {
        this.outbox = outbox;
        this.loop = loop;
        this.thread = Thread.ofPlatform().name("sim-registrar").daemon(true).unstarted(this::run);
    }

    static Registrar start(ReportOutbox outbox, ControllerLoop loop) {
        Registrar registrar = new Registrar(outbox, loop);
        registrar.thread.start();
        return registrar;
    }

    private void run() {
        try {
            while (outbox.awaitReports()) {
                outbox.drainTo(loop::submit);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Delivers now whatever the nodes have reported so far, so that a command queued after this
     * call is decided after those reports (queued, not awaited, as a node's report is).
     */
    void flush() {
        outbox.drainTo(loop::submit);
    }

    @Override
    public void close() {
        outbox.close();
        thread.interrupt();
    }
}
