package dev.sluice.restd;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.restd.auth.TokenGate;
import dev.sluice.restd.http.RestServer;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A REST daemon on a free loopback port, in front of a {@link FakeController}, and a client for it. */
final class RestFixture implements AutoCloseable {
    record Answer(int status, ObjectNode body) {}

    final byte[] key = new byte[64];
    final UserTokens tokens;
    final FakeController controller = new FakeController();
    final RestServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    /** A fixture for a test instance's field ({@code @AutoClose} closes it after each test). */
    static RestFixture started() {
        try {
            return new RestFixture();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    RestFixture() throws IOException {
        new SecureRandom().nextBytes(key);
        tokens = new UserTokens(key);
        server = new RestServer(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new TokenGate(Optional.of(tokens)),
                controller,
                "test",
                new SlurmdbApi.Control("10.0.0.1", 6817),
                Clock.systemUTC());
        server.start();
    }

    String token(String user) {
        return tokens.mint(user, Instant.now(), Duration.ofMinutes(5));
    }

    Answer send(String method, String path, String body, String user, String token) {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (user != null) {
            req.header("X-SLURM-USER-NAME", user);
        }
        if (token != null) {
            req.header("X-SLURM-USER-TOKEN", token);
        }
        if (body != null) {
            req.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
            // slurmrestd answers some refusals in plain text: kept under "text".
            ObjectNode answer = r.body().startsWith("{")
                    ? OpenApiDocs.parse(r.body())
                    : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                            .objectNode()
                            .put("text", r.body());
            return new Answer(r.statusCode(), answer);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** As root, the daemon's operator (as sacctmgr must be run to change anything), with a fresh token. */
    Answer asRoot(String method, String path, String body) {
        return send(method, path, body, "root", token("root"));
    }

    /** As {@code alice}, with a fresh token. */
    Answer as(String method, String path, String body) {
        return send(method, path, body, "alice", token("alice"));
    }

    @Override
    public void close() {
        server.close();
    }
}
