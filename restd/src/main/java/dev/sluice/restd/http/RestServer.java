package dev.sluice.restd.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.restd.auth.RestAuth;
import dev.sluice.restd.auth.TokenGate;
import dev.sluice.restd.controller.Sessions;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of sluice-restd, on Jetty (each request on a virtual thread: a request waits
 * on the controller without holding a platform thread): reads each request into an
 * {@link Exchange} for the {@link Dispatcher}, which authenticates it and finds its data parser,
 * and writes the answer back. The JDK's own server stopped
 * reading requests once a thousand clients were connected at once (docs/benchmarks.md). Every answer, refusals
 * included, is a JSON object with {@code meta}, {@code errors} and {@code warnings}.
 */
public final class RestServer implements AutoCloseable {
    /** Requests larger than this are refused unread. */
    public static final int MAX_BODY_BYTES = RequestBody.MAX_BODY_BYTES;

    private static final Logger log = LoggerFactory.getLogger(RestServer.class);

    private final ObjectMapper json = new ObjectMapper();
    private final Server server;
    private final Optional<ServerConnector> connector;
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    private final Dispatcher dispatcher;
    static final int ACCEPT_BACKLOG = 4096;

    public RestServer(InetSocketAddress listen, TokenGate gate, Sessions sessions, String cluster, Clock clock)
            throws IOException {
        this(listen, gate, sessions, cluster, SlurmdbApi.Control.unknown(), clock);
    }

    /** @param control where this cluster's controller listens, for {@code /slurmdb/.../clusters} */
    public RestServer(
            InetSocketAddress listen,
            TokenGate gate,
            Sessions sessions,
            String cluster,
            SlurmdbApi.Control control,
            Clock clock)
            throws IOException {
        this(new Listen.Tcp(listen), gate, sessions, cluster, control, clock);
    }

    /**
     * @param gate how requests are authenticated ({@code rest_auth/jwt} or {@code rest_auth/local})
     * @param control where this cluster's controller listens, for {@code /slurmdb/.../clusters}
     */
    public RestServer(
            Listen listen, RestAuth gate, Sessions sessions, String cluster, SlurmdbApi.Control control, Clock clock)
            throws IOException {
        this.dispatcher = new Dispatcher(gate, sessions, cluster, control, clock, workers);
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("restd");
        threads.setVirtualThreadsExecutor(workers);
        this.server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        // Headers up to 64 KiB reach the token check, which refuses an oversized token with
        // Slurm's 401 body; Jetty's own 8 KiB limit would answer an HTML 431 instead.
        http.setRequestHeaderSize(64 * 1024);
        http.setSendServerVersion(false);
        switch (listen) {
            case Listen.Tcp tcp -> {
                ServerConnector c = new ServerConnector(server, new HttpConnectionFactory(http));
                c.setHost(tcp.address().getHostString());
                c.setPort(tcp.address().getPort());
                // A thousand dashboards connect at once after a restart: a short accept queue drops
                // their SYNs, and each dropped client waits out TCP's retry back-off (1 s, 3 s, 7 s...).
                c.setAcceptQueueSize(ACCEPT_BACKLOG);
                server.addConnector(c);
                this.connector = Optional.of(c);
            }
            case Listen.Unix unix -> {
                server.addConnector(new UnixConnector(server, unix.path(), new HttpConnectionFactory(http)));
                this.connector = Optional.empty();
            }
        }
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                exchange(request, response, callback);
                return true;
            }
        });
    }

    public void start() throws IOException {
        try {
            server.start();
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot start the HTTP server: " + e.getMessage(), e);
        }
    }

    /** The port actually bound (the configured one, or the one picked for port 0); -1 on a Unix socket. */
    public int port() {
        return connector.map(ServerConnector::getLocalPort).orElse(-1);
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("stopping the HTTP server: {}", e.getMessage());
        }
        workers.close();
    }

    private void exchange(Request request, Response response, Callback callback) {
        Exchange ex = new Exchange(
                request.getMethod(),
                request.getHttpURI().getPath(),
                request.getHttpURI().getQuery(),
                name -> request.getHeaders().get(name),
                source(request),
                UnixConnector.peer(request),
                () -> client(request),
                Content.Source.asInputStream(request));
        Reply reply;
        try {
            reply = dispatcher.answer(ex);
        } catch (RuntimeException | IOException e) {
            log.error("{} {} failed", ex.method(), ex.path(), e);
            reply = dispatcher
                    .envelope("", ex)
                    .error(ErrorCode.UNEXPECTED.number(), ErrorCode.UNEXPECTED.text(), "internal error", "restd")
                    .reply(500);
        }
        byte[] bytes;
        try {
            bytes = reply.text().isPresent()
                    ? reply.text().get().getBytes(StandardCharsets.UTF_8)
                    : json.writeValueAsBytes(reply.body());
        } catch (IOException e) {
            callback.failed(e);
            return;
        }
        response.setStatus(reply.status());
        response.getHeaders()
                .put(HttpHeader.CONTENT_TYPE, reply.text().isPresent() ? "text/plain" : "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /**
     * The client as slurmrestd 22.05 names it in some error texts: {@code [HOST]:PORT} with the
     * address's host name ({@code [localhost]:54410}), or the socket's path for a Unix socket.
     * A name lookup: only for the answers that show it.
     */
    private static String client(Request request) {
        if (request.getConnectionMetaData().getRemoteSocketAddress() instanceof InetSocketAddress inet) {
            return "[" + inet.getAddress().getHostName() + "]:" + inet.getPort();
        }
        return "[" + request.getConnectionMetaData().getLocalSocketAddress() + "]";
    }

    /** The client as slurmrestd's logs and {@code meta} name it: {@code [ADDR]:PORT}, or the socket's peer. */
    private static String source(Request request) {
        if (request.getConnectionMetaData().getRemoteSocketAddress() instanceof InetSocketAddress) {
            return "[" + Request.getRemoteAddr(request) + "]:" + Request.getRemotePort(request);
        }
        return UnixConnector.peer(request)
                .map(p -> "unix socket peer " + p.user().getName())
                .orElse("unix socket");
    }
}
