package dev.sluice.cli.client;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * How {@link ControllerClient} reaches one controller over the network. A command run in its
 * own JVM connects per call ({@link #perCall()}); sluice-agent keeps connections open between
 * its callers ({@link ConnectionPool}), since the command socket answers any number of
 * requests on one connection, in order.
 */
public interface Transport {
    int CONNECT_TIMEOUT_MS = 10_000;
    // Slurm's MessageTimeout default is 10 s; a listing of a large cluster may take longer
    // to serialise than to connect, so reads get more room.
    int READ_TIMEOUT_MS = 60_000;

    /**
     * A connection ready for one exchange.
     *
     * @throws IOException when the controller accepts no connection (the caller tries the next)
     */
    Link open(ControllerAddress address) throws IOException;

    /** One connection, used by one call at a time. */
    interface Link extends AutoCloseable {
        /** Writes one request frame and reads its response frame. */
        ClientResponse exchange(SignedRequest request) throws IOException;

        /** The exchange completed: the connection may serve a later call. */
        void release();

        /** The connection is broken or unwanted. */
        @Override
        void close();
    }

    /** A fresh connection for every call, closed after it. */
    static Transport perCall() {
        return address -> {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(address.host(), address.port()), CONNECT_TIMEOUT_MS);
                socket.setSoTimeout(READ_TIMEOUT_MS);
                socket.setTcpNoDelay(true);
            } catch (IOException e) {
                socket.close();
                throw e;
            }
            return new Link() {
                @Override
                public ClientResponse exchange(SignedRequest request) throws IOException {
                    Frames.write(request, new BufferedOutputStream(socket.getOutputStream()));
                    return Frames.readAnswer(ClientResponse.parser(), new BufferedInputStream(socket.getInputStream()));
                }

                @Override
                public void release() {
                    close();
                }

                @Override
                public void close() {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // nothing more will be read from it
                    }
                }
            };
        };
    }
}
