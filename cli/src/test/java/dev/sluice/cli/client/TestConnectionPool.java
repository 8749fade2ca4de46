package dev.sluice.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.cli.Caller;
import dev.sluice.cli.testing.FakeController;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.PingRequest;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** sluice-agent's kept connections: reused while alive, never used to resend a request. */
class TestConnectionPool {
    private static final Caller CALLER = new Caller(1000, 1000, "alice", "login1");

    private static ClientRequest.Builder ping() {
        return ClientRequest.newBuilder().setPing(PingRequest.getDefaultInstance());
    }

    private static ControllerClient client(int port, ConnectionPool pool) {
        return new ControllerClient(
                List.of(new ControllerAddress("ctl", "127.0.0.1", port)), CALLER, ClientAuth.none(CALLER), pool);
    }

    @Test
    void consecutiveCallsShareOneConnection() throws Exception {
        try (FakeController ctld = new FakeController(r -> ClientResponse.getDefaultInstance());
                ConnectionPool pool = new ConnectionPool(4, Duration.ofMinutes(1), Clock.systemUTC())) {
            ControllerClient client = client(ctld.port(), pool);
            for (int i = 0; i < 5; i++) {
                client.call(ping());
            }
            assertThat(ctld.requests()).hasSize(5);
            assertThat(ctld.connections()).isEqualTo(1);
            assertThat(pool.idleCount(new ControllerAddress("ctl", "127.0.0.1", ctld.port())))
                    .isEqualTo(1);
        }
    }

    @Test
    void aConnectionTheControllerClosedIsReplacedWithoutAnError() throws Exception {
        // Answers one request per connection, then hangs up: a controller that restarted.
        try (OneShotServer server = new OneShotServer((in, out) -> answer(in, out));
                ConnectionPool pool = new ConnectionPool(4, Duration.ofMinutes(1), Clock.systemUTC())) {
            ControllerClient client = client(server.port(), pool);
            client.call(ping());
            await().until(() -> server.closed.get() == 1);
            client.call(ping());
            assertThat(server.requests.get()).isEqualTo(2);
            assertThat(server.accepted.get()).isEqualTo(2);
        }
    }

    @Test
    void aConnectionBrokenMidCallFailsTheCallAndIsNotRetried() throws Exception {
        // Reads the request, then hangs up without answering: it may have acted on it.
        try (OneShotServer server = new OneShotServer((in, out) -> read(in));
                ConnectionPool pool = new ConnectionPool(4, Duration.ofMinutes(1), Clock.systemUTC())) {
            ControllerClient client = client(server.port(), pool);
            assertThatThrownBy(() -> client.call(ping()))
                    .isInstanceOfSatisfying(
                            ControllerException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.COMMUNICATIONS_CONNECTION_ERROR));
            assertThat(server.requests.get()).isEqualTo(1);
            assertThat(pool.idleCount(new ControllerAddress("ctl", "127.0.0.1", server.port())))
                    .isZero();
        }
    }

    @Test
    void aConnectionIdleLongerThanAllowedIsNotReused() throws Exception {
        MutableClock clock = new MutableClock();
        try (FakeController ctld = new FakeController(r -> ClientResponse.getDefaultInstance());
                ConnectionPool pool = new ConnectionPool(4, Duration.ofSeconds(30), clock)) {
            ControllerClient client = client(ctld.port(), pool);
            client.call(ping());
            clock.now = clock.now.plusSeconds(29);
            client.call(ping());
            assertThat(ctld.connections()).isEqualTo(1);
            clock.now = clock.now.plusSeconds(31);
            client.call(ping());
            assertThat(ctld.connections()).isEqualTo(2);
        }
    }

    @Test
    void noControllerListeningIsConnectionRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (ConnectionPool pool = new ConnectionPool(4, Duration.ofMinutes(1), Clock.systemUTC())) {
            assertThatThrownBy(() -> client(port, pool).call(ping()))
                    .isInstanceOfSatisfying(
                            ControllerException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTION_REFUSED));
        }
    }

    private static SignedRequest read(java.io.InputStream in) throws IOException {
        return Frames.read(SignedRequest.parser(), in);
    }

    private static void answer(java.io.InputStream in, java.io.OutputStream out) throws IOException {
        ClientRequest request = ClientRequest.parseFrom(read(in).getRequest());
        Frames.write(
                ClientResponse.newBuilder().setRequestId(request.getRequestId()).build(), out);
    }

    private interface Exchange {
        void on(java.io.InputStream in, java.io.OutputStream out) throws IOException;
    }

    /** Serves one exchange per connection, then closes it. */
    private static final class OneShotServer implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        OneShotServer(Exchange exchange) throws IOException {
            Thread.ofPlatform().daemon().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        accepted.incrementAndGet();
                        requests.incrementAndGet();
                        exchange.on(s.getInputStream(), s.getOutputStream());
                    } catch (IOException e) {
                        // closed
                    }
                    closed.incrementAndGet();
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-11-29T12:00:00Z");

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
