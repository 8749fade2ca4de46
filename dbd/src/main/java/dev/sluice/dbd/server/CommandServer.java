package dev.sluice.dbd.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.DbdRequest;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command socket sacct speaks to: length-delimited {@code DbdRequest}/{@code DbdResponse}
 * frames ({@link Frames}) over plain TCP, one virtual thread per connection. Queries are rare
 * and short, so a blocking socket is enough and keeps the daemon free of a second netty.
 * A malformed frame closes that connection only.
 */
final class CommandServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CommandServer.class);
    private static final int READ_TIMEOUT_MS = 60_000;

    private final QueryHandler handler;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private ServerSocket server;
    private Thread acceptor;

    CommandServer(QueryHandler handler) {
        this.handler = requireNonNull(handler, "handler is null");
    }

    InetSocketAddress start(InetSocketAddress bind) throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(bind);
        acceptor = Thread.ofVirtual().name("dbd-accept").start(this::acceptLoop);
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                open.add(s);
                Thread.ofVirtual().name("dbd-conn").start(() -> serve(s));
            } catch (IOException e) {
                if (!server.isClosed()) {
                    log.warn("accept failed: {}", e.getMessage());
                }
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setSoTimeout(READ_TIMEOUT_MS);
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = new BufferedOutputStream(s.getOutputStream());
            while (true) {
                DbdRequest request;
                try {
                    request = Frames.read(DbdRequest.parser(), in);
                } catch (EOFException e) {
                    return;
                }
                Frames.write(handler.handle(request), out);
            }
        } catch (SocketException e) {
            // The client went away or the server is closing: nothing to answer.
        } catch (IOException e) {
            log.warn("closing command connection from {}: {}", s.getRemoteSocketAddress(), e.getMessage());
        } finally {
            open.remove(s);
        }
    }

    @Override
    public void close() {
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException ignored) {
            // Closing a listening socket has nothing left to report.
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // Same: the connection is gone either way.
            }
        }
        if (acceptor != null) {
            try {
                acceptor.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
