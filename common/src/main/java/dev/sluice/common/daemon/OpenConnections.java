package dev.sluice.common.daemon;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connections a blocking server (one virtual thread per connection) has open, so that
 * closing the server also ends the threads blocked reading them: a socket closed under a read
 * wakes it with an exception, which its thread takes as the end of that connection.
 */
public final class OpenConnections<C extends Closeable> {
    private final Set<C> open = ConcurrentHashMap.newKeySet();

    /** A connection just accepted; its thread {@link #remove}s it when done. */
    public void add(C connection) {
        open.add(requireNonNull(connection, "connection is null"));
    }

    public void remove(C connection) {
        open.remove(connection);
    }

    /**
     * Closes the listener first, which ends the accept loop, then every open connection. Failures to close are dropped: the socket is gone either way.
     *
     * @param listener the server's listening socket, or null when it never started
     */
    public void closeAll(Closeable listener) {
        closeQuietly(listener);
        for (C connection : open) {
            closeQuietly(connection);
        }
    }

    private static void closeQuietly(Closeable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException ignored) {
            // Closing has nothing left to report; the socket is gone either way.
        }
    }
}
