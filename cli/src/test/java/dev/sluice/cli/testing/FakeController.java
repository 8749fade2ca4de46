package dev.sluice.cli.testing;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A controller stand-in on 127.0.0.1 and an ephemeral port: answers each request frame with
 * what {@code handler} returns, any number per connection as the real command socket does, and
 * records the requests. One thread accepts; each connection is answered in order on its own.
 */
public final class FakeController implements AutoCloseable {
    private final ServerSocket server;
    private final Thread acceptor;
    private final List<ClientRequest> requests = new CopyOnWriteArrayList<>();
    private final List<SignedRequest> envelopes = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private volatile Function<ClientRequest, ClientResponse> handler;

    public FakeController(Function<ClientRequest, ClientResponse> handler) throws IOException {
        this.handler = handler;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofPlatform().daemon().name("fake-controller").start(this::serve);
    }

    public int port() {
        return server.getLocalPort();
    }

    public List<ClientRequest> requests() {
        return List.copyOf(requests);
    }

    /** The frames as they came, credentials included. */
    public List<SignedRequest> envelopes() {
        return List.copyOf(envelopes);
    }

    public void handler(Function<ClientRequest, ClientResponse> handler) {
        this.handler = handler;
    }

    private void serve() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                connections.incrementAndGet();
                Thread.ofVirtual().name("fake-controller-conn").start(() -> answer(s));
            } catch (IOException e) {
                // closed: the loop ends
            }
        }
    }

    /** Answers frames on one connection until the client closes it, as the real command socket does. */
    private void answer(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                SignedRequest signed = Frames.read(SignedRequest.parser(), in);
                envelopes.add(signed);
                ClientRequest req = ClientRequest.parseFrom(signed.getRequest());
                requests.add(req);
                ClientResponse resp = handler.apply(req).toBuilder()
                        .setProtocolVersion(Frames.PROTOCOL_VERSION)
                        .setRequestId(req.getRequestId())
                        .build();
                Frames.write(resp, out);
            }
        } catch (IOException e) {
            // the client closed the connection, or went away mid-frame
        }
    }

    /** Connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    @Override
    public void close() throws IOException {
        server.close();
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
