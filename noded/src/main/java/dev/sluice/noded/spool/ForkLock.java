package dev.sluice.noded.spool;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps the daemon's process starts apart from its writes of files that are about to be
 * executed. A process started while another thread has a script open for writing inherits that
 * descriptor until its own exec closes it; executing the script meanwhile fails with
 * {@code ETXTBSY} ("Text file busy": the job ends with exit code 126). Seen under load in
 * {@code scripts/bench-e2e}: a few array tasks in 10,000. Go's {@code syscall.ForkLock} answers
 * the same race the same way: starts share the lock, a write of an executable holds it alone.
 */
public final class ForkLock {
    private static final ReentrantReadWriteLock LOCK = new ReentrantReadWriteLock();

    private ForkLock() {}

    /** Starts {@code pb} while no executable is being written. */
    public static Process start(ProcessBuilder pb) throws IOException {
        LOCK.readLock().lock();
        try {
            return pb.start();
        } finally {
            LOCK.readLock().unlock();
        }
    }

    /** Writes {@code bytes} to a new owner-only {@code file} while no process is being started. */
    public static void write(Path file, byte[] bytes) throws IOException {
        LOCK.writeLock().lock();
        try {
            dev.sluice.common.files.OwnerOnly.write(file, bytes);
        } finally {
            LOCK.writeLock().unlock();
        }
    }
}
