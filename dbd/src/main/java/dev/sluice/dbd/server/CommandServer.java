package dev.sluice.dbd.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.daemon.OpenConnections;
import dev.sluice.common.log.QuietLog;
import dev.sluice.protocol.auth.AuthenticatedFrames;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command socket sacct and sacctmgr speak to: length-delimited {@code SignedRequest}
 * frames around a {@code DbdRequest}, answered with {@code DbdResponse} frames ({@link
 * dev.sluice.protocol.Frames}) over plain TCP, one virtual thread per connection. Each request
 * must carry a cluster credential bound to its bytes or a SLURM_JWT; the identity the client
 * wrote is replaced by the one that verified (docs/security.md), as on the controller's socket
 * ({@link AuthenticatedFrames}). Queries are rare and short, so a blocking socket
 * is enough and keeps the daemon free of a second netty. A malformed frame closes that
 * connection only.
 */
final class CommandServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CommandServer.class);
    private static final QuietLog quiet = QuietLog.of(CommandServer.class);
    private static final int READ_TIMEOUT_MS = 60_000;

    private final AuthenticatedFrames<DbdRequest, DbdResponse> frames;
    private final OpenConnections<Socket> open = new OpenConnections<>();
    private ServerSocket server;
    private Thread acceptor;

    CommandServer(QueryHandler handler, RequestAuthenticator authenticator, InstantSource clock) {
        requireNonNull(handler, "handler is null");
        this.frames = new AuthenticatedFrames<>(
                DbdRequest.getDefaultInstance(),
                DbdResponse.getDefaultInstance(),
                request -> request.getBodyCase().name(),
                handler::handle,
                authenticator,
                clock);
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
            String peer = s.getInetAddress().getHostAddress();
            AuthenticatedFrames.answerEach(
                    new BufferedInputStream(s.getInputStream()),
                    new BufferedOutputStream(s.getOutputStream()),
                    frame -> frames.fromNetwork(frame, peer).answer());
        } catch (SocketException e) {
            // The client went away or the server is closing: nothing to answer.
        } catch (IOException e) {
            quiet.warn(QuietLog.host(s.getRemoteSocketAddress()), "closed command connection", e.getMessage());
        } finally {
            open.remove(s);
        }
    }

    @Override
    public void close() {
        open.closeAll(server);
        if (acceptor != null) {
            try {
                acceptor.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
