package dev.sluice.dbd.server;

import java.time.Duration;

/**
 * Wakes the controllers' held policy asks when a sacctmgr change commits here, so that a user
 * added with sacctmgr can submit at once (slurmdbd pushes such changes to slurmctld). A ticket
 * taken before reading the database makes a change committed in between impossible to miss.
 * Changes committed through another dbd on the same database wake nobody here: the held ask
 * re-reads the database after each slice of its wait instead.
 */
final class PolicyChanges {
    private long ticket;
    private boolean closed;

    /** The current ticket: take it before reading the version the answer is based on. */
    synchronized long ticket() {
        return ticket;
    }

    /** A change committed: every waiter with an older ticket wakes. */
    synchronized void changed() {
        ticket++;
        notifyAll();
    }

    /**
     * Waits until a change after {@code seen}, at most {@code max}; true when one happened. Not
     * a timing device: the caller re-reads the database whatever the answer.
     */
    synchronized boolean awaitChange(long seen, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (ticket == seen && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return ticket != seen;
    }

    /** Shutting down: held asks answer now. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    synchronized boolean closed() {
        return closed;
    }
}
