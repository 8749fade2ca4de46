package dev.sluice.cli.client;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Connections to the controllers kept open between calls, for sluice-agent: a submission then
 * costs one request and one response instead of a TCP handshake, a netty channel and a virtual
 * thread on the controller as well.
 *
 * <p>A kept connection is checked before reuse without blocking: one the controller has closed
 * (it restarted, or failed over) reads as end of stream and is dropped, so a request is only
 * ever written to a connection that was alive a moment before. A request is never resent: if a
 * connection breaks mid-call the call fails as a fresh connection's would, since the controller
 * may have acted on it. Thread-safe; each link serves one call at a time.
 */
public final class ConnectionPool implements Transport, AutoCloseable {
    private final int maxIdlePerController;
    private final Duration maxIdle;
    private final Clock clock;
    private final Map<ControllerAddress, Deque<PooledLink>> idle = new HashMap<>();
    private boolean closed;

    /**
     * @param maxIdlePerController connections kept per controller; more are closed on release
     * @param maxIdle a connection unused for longer is closed rather than reused
     */
    public ConnectionPool(int maxIdlePerController, Duration maxIdle, Clock clock) {
        if (maxIdlePerController < 0) {
            throw new IllegalArgumentException("maxIdlePerController < 0");
        }
        this.maxIdlePerController = maxIdlePerController;
        this.maxIdle = requireNonNull(maxIdle, "maxIdle is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public Link open(ControllerAddress address) throws IOException {
        while (true) {
            PooledLink kept;
            synchronized (this) {
                Deque<PooledLink> links = idle.get(address);
                kept = links == null ? null : links.pollFirst();
            }
            if (kept == null) {
                return connect(address);
            }
            if (kept.usable(clock.instant())) {
                return kept;
            }
            kept.close();
        }
    }

    /** Connections currently kept for {@code address}. */
    public synchronized int idleCount(ControllerAddress address) {
        Deque<PooledLink> links = idle.get(address);
        return links == null ? 0 : links.size();
    }

    private PooledLink connect(ControllerAddress address) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.socket()
                    .connect(new InetSocketAddress(address.host(), address.port()), Transport.CONNECT_TIMEOUT_MS);
            channel.socket().setSoTimeout(Transport.READ_TIMEOUT_MS);
            return new PooledLink(address, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private void keep(PooledLink link) {
        synchronized (this) {
            if (!closed) {
                Deque<PooledLink> links = idle.computeIfAbsent(link.address, a -> new ArrayDeque<>());
                if (links.size() < maxIdlePerController) {
                    link.lastUsed = clock.instant();
                    // Most recently used first: the hottest connections stay warm, extras age out.
                    links.addFirst(link);
                    return;
                }
            }
        }
        link.close();
    }

    @Override
    public void close() {
        Map<ControllerAddress, Deque<PooledLink>> all;
        synchronized (this) {
            closed = true;
            all = new HashMap<>(idle);
            idle.clear();
        }
        all.values().forEach(links -> links.forEach(PooledLink::close));
    }

    private final class PooledLink implements Link {
        private final ControllerAddress address;
        private final SocketChannel channel;
        private final OutputStream out;
        private final InputStream in;
        private Instant lastUsed;

        PooledLink(ControllerAddress address, SocketChannel channel) throws IOException {
            this.address = address;
            this.channel = channel;
            // The socket adaptor's streams honour SO_TIMEOUT; the channel's own would not.
            this.out = new BufferedOutputStream(channel.socket().getOutputStream());
            this.in = new BufferedInputStream(channel.socket().getInputStream());
        }

        /** Alive and not idle too long: nothing to read, and not at end of stream. */
        boolean usable(Instant now) {
            if (lastUsed != null && Duration.between(lastUsed, now).compareTo(maxIdle) > 0) {
                return false;
            }
            try {
                channel.configureBlocking(false);
                int read = channel.read(ByteBuffer.allocate(1));
                channel.configureBlocking(true);
                // -1: the controller closed it; > 0: bytes nobody asked for, so out of step.
                return read == 0;
            } catch (IOException e) {
                return false;
            }
        }

        @Override
        public ClientResponse exchange(SignedRequest request) throws IOException {
            Frames.write(request, out);
            return Frames.readAnswer(ClientResponse.parser(), in);
        }

        @Override
        public void release() {
            keep(this);
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // it is being dropped
            }
        }
    }
}
