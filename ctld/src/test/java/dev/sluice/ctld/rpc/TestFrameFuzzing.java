package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.SecuredController.ROOT;
import static dev.sluice.ctld.rpc.SecuredController.request;
import static dev.sluice.ctld.rpc.SecuredController.submit;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.PingRequest;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Hostile bytes on the command socket of a running controller: random bytes, valid frames with
 * flipped bytes, and properly signed requests whose body is garbage (so the handlers behind
 * authentication see it too). After each, the controller still answers a well-formed request
 * on another connection — the one it had open meanwhile included. Fixed seeds: a failure
 * replays.
 */
class TestFrameFuzzing {
    private static Path dir;
    private static SecuredController ctld;
    private static Socket bystander;

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("sluice-fuzz");
        ctld = new SecuredController(dir, "");
        // A client that connected before the storm and keeps its connection throughout.
        bystander = new Socket(InetAddress.getLoopbackAddress(), ctld.server.commandPort());
        bystander.setSoTimeout(30_000);
    }

    @AfterContainer
    static void stop() throws IOException {
        bystander.close();
        ctld.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    @Provide
    Arbitrary<byte[]> noise() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(4096);
    }

    @Property(tries = 150, seed = "20261129")
    void randomBytesHarmNoOne(@ForAll("noise") byte[] bytes) throws Exception {
        blast(bytes);
        assertStillServing();
    }

    @Property(tries = 150, seed = "9")
    void mutatedFramesHarmNoOne(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
        dev.sluice.protocol.Frames.write(ctld.signed(submit("fuzz"), ROOT), frame);
        byte[] bytes = frame.toByteArray();
        for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
            bytes[random.nextInt(bytes.length)] ^= (byte) (1 + random.nextInt(255));
        }
        blast(bytes);
        assertStillServing();
    }

    @Property(tries = 150, seed = "77")
    void signedGarbageReachesTheHandlersAndHarmsNoOne(@ForAll("noise") byte[] body) throws Exception {
        // Signed for real: only the handlers stand between this body and the state.
        ClientResponse r;
        try {
            SignedRequest frame = SignedRequest.newBuilder()
                    .setRequest(ByteString.copyFrom(body))
                    .setCredential(new dev.sluice.common.auth.ClusterCredentials(ctld.keys)
                            .issue(
                                    ROOT,
                                    "slurmctld",
                                    body,
                                    java.time.Instant.now(),
                                    dev.sluice.common.auth.ClusterCredentials.DEFAULT_TTL))
                    .build();
            r = ctld.send(frame);
            assertThat(r.getProtocolVersion()).isEqualTo(dev.sluice.protocol.Frames.PROTOCOL_VERSION);
        } catch (IOException closed) {
            // Undecodable or strictly refused: the connection was closed, which is the answer.
        }
        assertStillServing();
    }

    /** Writes the bytes on a connection of its own and half-closes it, ignoring what comes back. */
    private static void blast(byte[] bytes) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), ctld.server.commandPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            in.readAllBytes();
        } catch (SocketException reset) {
            // The controller closed on us mid-write: fine.
        }
    }

    private static void assertStillServing() throws IOException {
        ClientRequest ping = request().setPing(PingRequest.getDefaultInstance()).build();
        assertThat(ctld.call(ping, ROOT).getPing().getClusterName()).isEqualTo("secure");
        dev.sluice.protocol.Frames.write(ctld.signed(ping, ROOT), bystander.getOutputStream());
        ClientResponse r = dev.sluice.protocol.Frames.read(ClientResponse.parser(), bystander.getInputStream());
        assertThat(r.getPing().getClusterName()).isEqualTo("secure");
        // And the single writer still decides: a cancel goes through the controller loop.
        ClientRequest cancel = request()
                .setSignalJob(dev.sluice.protocol.v1.SignalJobRequest.newBuilder()
                        .addJobIds("999999")
                        .setCancel(true))
                .build();
        assertThat(ctld.call(cancel, ROOT)
                        .getSignalJob()
                        .getResults(0)
                        .getError()
                        .getMessage())
                .isEqualTo("Invalid job id specified");
    }
}
