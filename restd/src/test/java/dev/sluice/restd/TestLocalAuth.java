package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.restd.auth.LocalAuth;
import dev.sluice.restd.http.Listen;
import dev.sluice.restd.http.RestServer;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rest_auth/local over a real Unix socket: the kernel's word on the peer is the identity, no
 * token is asked for, and a peer who is neither the daemon's own user nor root is refused
 * before the controller is asked. (Real users on both ends: TestRestLocalEndToEnd, packaging.)
 */
class TestLocalAuth {
    private static final String SELF = System.getProperty("user.name");

    @TempDir
    Path dir;

    record Answer(int status, String contentType, String text) {
        ObjectNode body() {
            return OpenApiDocs.parse(text);
        }
    }

    /** The daemon runs as this test's user; {@code peerUid} is what the user database says the peer is. */
    private static LocalAuth auth(long peerUid) {
        return new LocalAuth(SELF, 4242, name -> OptionalLong.of(name.equals(SELF) ? peerUid : -1));
    }

    @Test
    void theSocketsOwnUserIsServedWithoutAToken() throws Exception {
        FakeController controller = new FakeController();
        Path socket = dir.resolve("restd.socket");
        try (RestServer server = server(new Listen.Unix(socket), auth(4242), controller)) {
            Answer a = get(socket, "/slurm/v0.0.44/jobs");
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.contentType()).isEqualTo("application/json");
            assertThat(a.body().at("/errors").size()).isZero();
            assertThat(a.body().at("/meta/client/user").asText()).isEqualTo(SELF);
            assertThat(controller.seen).isNotEmpty().allSatisfy(s -> {
                assertThat(s.user()).isEqualTo(SELF);
                assertThat(s.token()).isEmpty();
            });
            // Anyone may connect (the kernel names them); the authentication decides.
            assertThat(Files.getPosixFilePermissions(socket)).hasSize(6);
        }
        assertThat(socket).doesNotExist();
    }

    @Test
    void rootIsServedAsTheDaemonsUser() throws Exception {
        FakeController controller = new FakeController();
        Path socket = dir.resolve("restd.socket");
        try (RestServer server = server(new Listen.Unix(socket), auth(0), controller)) {
            assertThat(get(socket, "/slurm/v0.0.44/jobs").status()).isEqualTo(200);
            assertThat(controller.seen)
                    .isNotEmpty()
                    .allSatisfy(s -> assertThat(s.user()).isEqualTo(SELF));
        }
    }

    @Test
    void anotherUserIsRefusedAsSlurmrestdRefusesAndTheControllerNeverAsked() throws Exception {
        FakeController controller = new FakeController();
        Path socket = dir.resolve("restd.socket");
        // The user database says the peer is uid 1002: neither the daemon's 4242 nor root.
        try (RestServer server = server(new Listen.Unix(socket), auth(1002), controller)) {
            Answer a = get(socket, "/slurm/v0.0.44/jobs");
            assertThat(a.status()).isEqualTo(401);
            // slurmrestd 22.05's answer, seen with curl --unix-socket as another user.
            assertThat(a.contentType()).isEqualTo("text/plain");
            assertThat(a.text()).isEqualTo("Authentication failure");
            assertThat(get(socket, "/slurm/v0.0.38/ping").status()).isEqualTo(401);
            assertThat(controller.seen).isEmpty();
        }
    }

    @Test
    void overTcpLocalAuthenticationHasNobodyToTrust() throws Exception {
        FakeController controller = new FakeController();
        try (RestServer server = server(
                new Listen.Tcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)), auth(4242), controller)) {
            var http = java.net.http.HttpClient.newHttpClient();
            var r = http.send(
                    java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + server.port() + "/slurm/v0.0.44/jobs"))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(controller.seen).isEmpty();
        }
    }

    @Test
    void itWillNotRunAsRootUnlessTold() {
        assertThat(LocalMode.refusal(0, Map.of())).hasValue("sluice-restd should not be run as the root user.");
        assertThat(LocalMode.refusal(0, Map.of("SLURMRESTD_SECURITY", "disable_unshare_files, disable_user_check")))
                .isEmpty();
        assertThat(LocalMode.refusal(1001, Map.of())).isEmpty();
    }

    private static RestServer server(Listen where, LocalAuth auth, FakeController controller) throws IOException {
        RestServer server = new RestServer(
                where, auth, controller, "test", new SlurmdbApi.Control("10.0.0.1", 6817), Clock.systemUTC());
        server.start();
        return server;
    }

    /** A plain HTTP/1.1 exchange over the socket: the JDK's HTTP client speaks TCP only. */
    static Answer get(Path socket, String path) {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            String request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
            ch.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
            String text = new String(Channels.newInputStream(ch).readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(text.substring(9, 12));
            String head = text.substring(0, text.indexOf("\r\n\r\n"));
            String type = head.lines()
                    .filter(l -> l.regionMatches(true, 0, "Content-Type:", 0, 13))
                    .map(l -> l.substring(13).strip())
                    .findFirst()
                    .orElse("");
            return new Answer(status, type, text.substring(head.length() + 4));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
