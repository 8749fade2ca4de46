package dev.sluice.dbd.server;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.log.QuietLog;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.SlurmError;
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
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command socket sacct and sacctmgr speak to: length-delimited {@code SignedRequest}
 * frames around a {@code DbdRequest}, answered with {@code DbdResponse} frames ({@link Frames})
 * over plain TCP, one virtual thread per connection. Each request must carry a cluster
 * credential bound to its bytes or a SLURM_JWT; the identity the client wrote is replaced by
 * the one that verified (docs/security.md). Queries are rare and short, so a blocking socket
 * is enough and keeps the daemon free of a second netty. A malformed frame closes that
 * connection only.
 */
final class CommandServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CommandServer.class);
    private static final QuietLog quiet = QuietLog.of(CommandServer.class);
    private static final int READ_TIMEOUT_MS = 60_000;

    private final QueryHandler handler;
    private final RequestAuthenticator authenticator;
    private final InstantSource clock;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private ServerSocket server;
    private Thread acceptor;

    CommandServer(QueryHandler handler, RequestAuthenticator authenticator, InstantSource clock) {
        this.handler = requireNonNull(handler, "handler is null");
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
        this.clock = requireNonNull(clock, "clock is null");
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
            String peer = s.getInetAddress().getHostAddress();
            while (true) {
                SignedRequest frame;
                try {
                    frame = Frames.read(SignedRequest.parser(), in);
                } catch (EOFException e) {
                    return;
                }
                Frames.writeAnswer(answer(frame, peer), out);
            }
        } catch (SocketException e) {
            // The client went away or the server is closing: nothing to answer.
        } catch (IOException e) {
            quiet.warn(QuietLog.host(s.getRemoteSocketAddress()), "closed command connection", e.getMessage());
        } finally {
            open.remove(s);
        }
    }

    /** Authenticates, then answers; an unknown field anywhere on top closes the connection. */
    private DbdResponse answer(SignedRequest frame, String peer) throws IOException {
        if (!frame.getUnknownFields().asMap().isEmpty()) {
            throw new InvalidProtocolBufferException("unknown fields in the request envelope");
        }
        DbdRequest request = DbdRequest.parseFrom(frame.getRequest());
        if (!request.getUnknownFields().asMap().isEmpty()) {
            throw new InvalidProtocolBufferException("unknown fields in the request");
        }
        Principal who;
        try {
            who = authenticator.authenticate(
                    frame.getRequest().toByteArray(),
                    frame.getCredential(),
                    frame.getUserToken(),
                    frame.getTokenUser(),
                    peer,
                    clock.instant());
        } catch (AuthException e) {
            quiet.warn(peer, "refused " + request.getBodyCase(), e.getMessage());
            return DbdResponse.newBuilder()
                    .setProtocolVersion(Frames.PROTOCOL_VERSION)
                    .setRequestId(request.getRequestId())
                    .setError(SlurmError.newBuilder()
                            .setCode(ErrorCode.AUTHENTICATION_ERROR.number())
                            .setMessage(ErrorCode.AUTHENTICATION_ERROR.text()))
                    .build();
        }
        return handler.handle(request.toBuilder()
                .setIdentity(Identity.newBuilder()
                        .setUid((int) who.uid())
                        .setGid((int) who.gid())
                        .setUserName(who.userName())
                        .setHost(who.host()))
                .build());
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
