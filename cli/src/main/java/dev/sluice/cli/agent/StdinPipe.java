package dev.sluice.cli.agent;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The caller's standard input as the command sees it: chunks arrive from the connection's
 * reader thread and are read on the command's thread. Unlike {@code PipedInputStream} it does
 * not care which threads are alive, only whether input has ended.
 */
final class StdinPipe extends InputStream {
    private static final byte[] END = new byte[0];

    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private final Runnable firstDemand;
    private boolean demanded;
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    /** @param firstDemand run once, when the command first reads (the front end then sends input) */
    StdinPipe(Runnable firstDemand) {
        this.firstDemand = firstDemand;
    }

    void offer(byte[] chunk) {
        if (chunk.length > 0) {
            chunks.add(chunk);
        }
    }

    /** No more input: end of file once what is queued has been read. */
    void end() {
        chunks.add(END);
    }

    @Override
    public synchronized int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!demanded) {
            demanded = true;
            firstDemand.run();
        }
        while (position == current.length) {
            if (ended) {
                return -1;
            }
            try {
                byte[] next = chunks.take();
                if (next == END) {
                    ended = true;
                    return -1;
                }
                current = next;
                position = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading standard input");
            }
        }
        int n = Math.min(len, current.length - position);
        System.arraycopy(current, position, b, off, n);
        position += n;
        return n;
    }

    @Override
    public synchronized int available() {
        return current.length - position;
    }
}
