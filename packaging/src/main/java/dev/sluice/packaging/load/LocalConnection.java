package dev.sluice.packaging.load;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * One kept connection to the controller's command socket (StateSaveLocation/slurmctld.socket),
 * where the kernel vouches for the caller, so requests need no credential. The controller
 * serves one request at a time per connection: concurrency comes from many connections.
 */
public final class LocalConnection implements AutoCloseable {
    private final SocketChannel channel;
    private final InputStream in;
    private final OutputStream out;
    private final Identity identity;
    private long nextRequestId = 1;

    public LocalConnection(Path socket, Identity identity) throws IOException {
        this.channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
        this.in = new BufferedInputStream(Channels.newInputStream(channel));
        this.out = new BufferedOutputStream(Channels.newOutputStream(channel));
        this.identity = identity;
    }

    /** Sends one request and waits for its answer; a Slurm error comes back as an exception. */
    public ClientResponse call(ClientRequest.Builder request) throws IOException {
        byte[] body = request.setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(nextRequestId++)
                .setIdentity(identity)
                .build()
                .toByteArray();
        Frames.write(
                SignedRequest.newBuilder()
                        .setRequest(com.google.protobuf.ByteString.copyFrom(body))
                        .build(),
                out);
        ClientResponse response = Frames.readAnswer(ClientResponse.parser(), in);
        if (response.hasError() && response.getError().getCode() != 0) {
            throw new IOException("controller error " + response.getError().getCode() + ": "
                    + response.getError().getMessage());
        }
        return response;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
