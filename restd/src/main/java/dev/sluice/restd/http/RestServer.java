package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.UserDirectory;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.restd.auth.LocalAuth;
import dev.sluice.restd.auth.RestAuth;
import dev.sluice.restd.auth.TokenGate;
import dev.sluice.restd.controller.Sessions;
import dev.sluice.restd.dbv0038.Db38;
import dev.sluice.restd.openapi.OpenApiDocument;
import dev.sluice.restd.slurm.ApiVersion;
import dev.sluice.restd.slurm.SlurmApi;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import dev.sluice.restd.v0038.Api38;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import jdk.net.UnixDomainPrincipal;
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
 * on the controller without holding a platform thread): authenticates each request, bounds and
 * parses its body, and hands it to the data parser of its version. The JDK's own server stopped
 * reading requests once a thousand clients were connected at once (docs/benchmarks.md). Every answer, refusals
 * included, is a JSON object with {@code meta}, {@code errors} and {@code warnings}.
 */
public final class RestServer implements AutoCloseable {
    /** Requests larger than this are refused unread. */
    public static final int MAX_BODY_BYTES = 1024 * 1024;

    private static final Logger log = LoggerFactory.getLogger(RestServer.class);

    private final ObjectMapper json = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private final Server server;
    private final Optional<ServerConnector> connector;
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    private final RestAuth gate;
    private final Sessions sessions;
    static final int ACCEPT_BACKLOG = 4096;

    private final Api38 v0038;
    private final Db38 dbv0038;
    private final Map<ApiVersion, SlurmApi> versions = new EnumMap<>(ApiVersion.class);
    private final Map<ApiVersion, SlurmdbApi> accounting = new EnumMap<>(ApiVersion.class);
    private final String cluster;
    private final Clock clock;

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
        this.gate = requireNonNull(gate, "gate is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.clock = requireNonNull(clock, "clock is null");
        versions.putAll(SlurmApi.all(cluster, clock, workers));
        this.v0038 = new Api38(cluster, clock, UserDirectory.system());
        this.dbv0038 = new Db38(cluster, control, clock, UserDirectory.system());
        for (ApiVersion v : ApiVersion.values()) {
            accounting.put(v, new SlurmdbApi(v, cluster, control, clock));
        }
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

    /** One request as the handlers read it, whatever server carried it. */
    private record In(
            String method,
            String path,
            String rawQuery,
            java.util.function.Function<String, String> header,
            String source,
            Optional<UnixDomainPrincipal> peer,
            java.util.function.Supplier<String> client,
            InputStream body) {
        String getFirst(String name) {
            return header.apply(name);
        }
    }

    private void exchange(Request request, Response response, Callback callback) {
        In ex = new In(
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
            reply = answer(ex);
        } catch (RuntimeException | IOException e) {
            log.error("{} {} failed", ex.method(), ex.path(), e);
            reply = envelope("", ex)
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

    private Reply answer(In ex) throws IOException {
        String path = ex.path();
        RestAuth.Identity who;
        try {
            who = gate.authenticate(
                    new RestAuth.Presented(
                            ex.getFirst("X-SLURM-USER-NAME"), ex.getFirst("X-SLURM-USER-TOKEN"), ex.peer()),
                    clock.instant());
        } catch (AuthException e) {
            log.warn("refused {} {} from {}: {}", ex.method(), path, source(ex), e.getMessage());
            if (gate instanceof LocalAuth) {
                return Reply.text(401, LocalAuth.REFUSAL);
            }
            return envelope("", ex)
                    .error(
                            ErrorCode.AUTH_CRED_INVALID.number(),
                            ErrorCode.AUTH_CRED_INVALID.text(),
                            "Authentication failure",
                            gate.plugin())
                    .reply(401);
        }
        String user = who.user();
        String token = who.token();
        Optional<JsonNode> body;
        try {
            body = body(ex);
        } catch (TooLarge e) {
            return envelope(user, ex)
                    .error(
                            RestErrors.FAIL_PARSING.number(),
                            RestErrors.FAIL_PARSING.text(),
                            "request body is over " + MAX_BODY_BYTES + " bytes",
                            "restd")
                    .reply(413);
        } catch (JacksonException e) {
            return envelope(user, ex)
                    .error(
                            RestErrors.FAIL_PARSING.number(),
                            RestErrors.FAIL_PARSING.text(),
                            "malformed JSON: " + e.getOriginalMessage(),
                            "restd")
                    .reply(400);
        }
        if (ex.method().equals("GET") && (path.equals("/openapi/v3") || path.equals("/openapi/v3/"))) {
            ObjectNode doc = OpenApiDocument.build();
            return new Reply(200, doc);
        }
        if (path.startsWith(Api38.PREFIX)) {
            Optional<Reply> reply = v0038.handle(ex.method(), path, body, ex.client(), sessions.forUser(user, token));
            if (reply.isPresent()) {
                return reply.get();
            }
        }
        if (path.startsWith(Db38.PREFIX)) {
            Optional<Reply> reply = dbv0038.handle(new Db38.Call(
                    ex.method(),
                    path,
                    ex.rawQuery(),
                    query(ex.rawQuery()),
                    user,
                    sessions.accountingForUser(user, token),
                    sessions.forUser(user, token)));
            if (reply.isPresent()) {
                return reply.get();
            }
        }
        Optional<ApiVersion> version = ApiVersion.ofPath(path);
        if (version.isPresent()) {
            SlurmApi.Call call = new SlurmApi.Call(
                    ex.method(),
                    path,
                    query(ex.rawQuery()),
                    body,
                    user,
                    source(ex),
                    token,
                    sessions.forUser(user, token));
            Optional<Reply> reply = versions.get(version.get()).handle(call);
            if (reply.isPresent()) {
                return reply.get();
            }
        }
        Optional<ApiVersion> dbVersion = ApiVersion.ofSlurmdbPath(path);
        if (dbVersion.isPresent()) {
            Optional<Reply> reply = accounting
                    .get(dbVersion.get())
                    .handle(new SlurmdbApi.Call(
                            ex.method(),
                            path,
                            query(ex.rawQuery()),
                            body,
                            user,
                            source(ex),
                            sessions.accountingForUser(user, token)));
            if (reply.isPresent()) {
                return reply.get();
            }
        }
        return envelope(user, ex)
                .error(
                        RestErrors.INVALID_QUERY.number(),
                        RestErrors.INVALID_QUERY.text(),
                        "no " + ex.method() + " " + path + " here",
                        "restd")
                .reply(404);
    }

    private Envelope envelope(String user, In ex) {
        String path = ex.path();
        String parser = ApiVersion.ofPath(path)
                .or(() -> ApiVersion.ofSlurmdbPath(path))
                .map(ApiVersion::dataParser)
                .orElse("");
        return new Envelope(parser, user, source(ex), cluster);
    }

    private static String source(In ex) {
        return ex.source();
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

    /** Empty for no body; at most {@link #MAX_BODY_BYTES} are read whatever the length claims. */
    private Optional<JsonNode> body(In ex) throws IOException, TooLarge {
        String length = ex.getFirst("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.strip()) > MAX_BODY_BYTES) {
                    throw new TooLarge();
                }
            } catch (NumberFormatException e) {
                throw new TooLarge();
            }
        }
        byte[] bytes;
        try (InputStream in = ex.body()) {
            bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (bytes.length > MAX_BODY_BYTES) {
            throw new TooLarge();
        }
        if (bytes.length == 0) {
            return Optional.empty();
        }
        JsonNode node = json.readTree(bytes);
        return Optional.ofNullable(node).filter(n -> !n.isMissingNode());
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            String[] kv = pair.split("=", 2);
            out.put(
                    URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                    kv.length == 2 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        return out;
    }

    private static final class TooLarge extends Exception {
        TooLarge() {
            super(null, null, false, false);
        }
    }
}
