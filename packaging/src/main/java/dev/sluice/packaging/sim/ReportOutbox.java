package dev.sluice.packaging.sim;

import dev.sluice.ctld.loop.Command;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * What the simulated nodes have to tell the controller, queued until the {@link Registrar}
 * delivers it: the simulator's counterpart of a node daemon's spool outbox. The nodes need no
 * reference to the controller this way, which is what lets them be built before it.
 */
final class ReportOutbox {
    private final ArrayDeque<Command<Void>> reports = new ArrayDeque<>();
    private boolean closed;

    /** Queues a report; never blocks for long, as it runs on the controller's thread. */
    synchronized void post(Command<Void> report) {
        if (closed) {
            return;
        }
        reports.add(report);
        notifyAll();
    }

    /**
     * Hands every queued report to {@code deliver}, oldest first, under the outbox's lock: once
     * this returns, every report posted before the call has been delivered, by this call or by
     * an earlier one still holding the lock.
     */
    synchronized void drainTo(Consumer<Command<Void>> deliver) {
        Command<Void> next;
        while ((next = reports.poll()) != null) {
            deliver.accept(next);
        }
    }

    /** Blocks until a report is queued (true) or the outbox is closed (false). */
    synchronized boolean awaitReports() throws InterruptedException {
        while (reports.isEmpty() && !closed) {
            wait();
        }
        return !reports.isEmpty();
    }

    /** Drops what is queued and wakes the registrar so that it stops. */
    synchronized void close() {
        closed = true;
        reports.clear();
        notifyAll();
    }
}
