package dev.sluice.cli.client;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.Caller;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.Identity;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Sends one request to the controller and returns its response, over the Unix socket when the
 * controller is local and the caller speaks for itself, else over the network through a
 * {@link Transport}: a fresh connection per call in a command's own JVM, kept connections in
 * sluice-agent.
 *
 * <p>Controllers are tried in {@code SlurmctldHost} order, as Slurm fails over to a backup;
 * only when none accepts a connection does the call fail with
 * {@link ErrorCode#CONNECTION_REFUSED}, whose text is Slurm's "Unable to contact slurm
 * controller (connect failure)". Not thread-safe; a command uses it from one thread.
 */
public final class ControllerClient {
    /** The controller's name in cluster credentials. */
    static final String AUDIENCE = "slurmctld";

    /** What signing adds around a request (credential, envelope), with room to spare. */
    static final int SIGNING_ROOM = 64 * 1024;

    private final List<ControllerAddress> controllers;
    private final Caller caller;
    private final ClientAuth auth;
    private final Transport transport;
    private final QueryCoalescer queries;
    private long nextRequestId = 1;

    /** A client that proves nothing; only a stand-in controller answers it. */
    public ControllerClient(List<ControllerAddress> controllers, Caller caller) {
        this(controllers, caller, ClientAuth.none(caller));
    }

    public ControllerClient(List<ControllerAddress> controllers, Caller caller, ClientAuth auth) {
        this(controllers, caller, auth, Transport.perCall());
    }

    public ControllerClient(List<ControllerAddress> controllers, Caller caller, ClientAuth auth, Transport transport) {
        this(controllers, caller, auth, transport, QueryCoalescer.NONE);
    }

    /** @param queries shares listings with other callers of this process asking the same (sluice-agent) */
    public ControllerClient(
            List<ControllerAddress> controllers,
            Caller caller,
            ClientAuth auth,
            Transport transport,
            QueryCoalescer queries) {
        this.queries = requireNonNull(queries, "queries is null");
        this.transport = requireNonNull(transport, "transport is null");
        this.controllers = List.copyOf(controllers);
        this.caller = requireNonNull(caller, "caller is null");
        this.auth = requireNonNull(auth, "auth is null");
        if (this.controllers.isEmpty()) {
            throw new IllegalArgumentException("no controller address");
        }
    }

    /**
     * Fills in the envelope (protocol version, request id, identity), sends, and returns the
     * response body.
     *
     * @throws ControllerException with the controller's error when the response carries one,
     *     {@link ErrorCode#CONNECTION_REFUSED} when no controller accepts a connection, and
     *     {@link ErrorCode#COMMUNICATIONS_CONNECTION_ERROR} when a connection breaks mid-call
     */
    public ClientResponse call(ClientRequest.Builder request) throws ControllerException {
        return call(request, controllers, true);
    }

    /** The configured controllers, primary first. */
    public List<ControllerAddress> controllers() {
        return controllers;
    }

    /**
     * Like {@link #call(ClientRequest.Builder)}, against one controller only, over the network
     * (the local socket could belong to any of them).
     */
    public ClientResponse callOne(ControllerAddress controller, ClientRequest.Builder request)
            throws ControllerException {
        return call(request, List.of(controller), false);
    }

    private ClientResponse call(ClientRequest.Builder request, List<ControllerAddress> targets, boolean local)
            throws ControllerException {
        ClientRequest message = request.setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(nextRequestId++)
                .setIdentity(Identity.newBuilder()
                        .setUid((int) caller.uid())
                        .setGid((int) caller.gid())
                        .setUserName(caller.userName())
                        .setHost(caller.host()))
                .build();
        if (message.getSerializedSize() > Frames.MAX_FRAME_BYTES - SIGNING_ROOM) {
            // No controller would read it (frames stop at 16 MiB); a script this large is over
            // any max_script_size it accepts, and Slurm's controller answers it so.
            throw new ControllerException(ErrorCode.PATHNAME_TOO_LONG);
        }
        // Callers are told apart by the identity in their request: one who brings a token of its
        // own is asked for alone.
        QueryCoalescer sharing = auth.provesRequestIdentity() ? queries : QueryCoalescer.NONE;
        return checked(sharing.ask(message, () -> send(message.toByteArray(), targets, local)));
    }

    /** The controller's answer, error or not. */
    private ClientResponse send(byte[] body, List<ControllerAddress> targets, boolean local)
            throws ControllerException {
        if (local && auth.localSocket().isPresent()) {
            Optional<ClientResponse> viaSocket = callLocal(auth.localSocket().get(), body);
            if (viaSocket.isPresent()) {
                return viaSocket.get();
            }
        }
        for (ControllerAddress address : targets) {
            Transport.Link link;
            try {
                link = transport.open(address);
            } catch (IOException e) {
                continue;
            }
            ClientResponse response;
            try {
                response = link.exchange(auth.forNetwork(body, AUDIENCE));
            } catch (IOException e) {
                link.close();
                throw new ControllerException(ErrorCode.COMMUNICATIONS_CONNECTION_ERROR);
            }
            link.release();
            return response;
        }
        throw new ControllerException(ErrorCode.CONNECTION_REFUSED);
    }

    /**
     * One call over the controller's Unix socket; empty when nobody listens there (a stale
     * socket file, or one seen over a shared file system), so TCP is tried next.
     */
    private static Optional<ClientResponse> callLocal(Path path, byte[] body) throws ControllerException {
        SocketChannel channel;
        try {
            channel = SocketChannel.open(UnixDomainSocketAddress.of(path));
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
        try (channel) {
            Frames.write(ClientAuth.forLocal(body), new BufferedOutputStream(Channels.newOutputStream(channel)));
            return Optional.of(Frames.readAnswer(
                    ClientResponse.parser(), new BufferedInputStream(Channels.newInputStream(channel))));
        } catch (IOException e) {
            throw new ControllerException(ErrorCode.COMMUNICATIONS_CONNECTION_ERROR);
        }
    }

    private static ClientResponse checked(ClientResponse response) throws ControllerException {
        if (response.hasError() && response.getError().getCode() != 0) {
            String text = response.getError().getMessage();
            int number = response.getError().getCode();
            throw new ControllerException(
                    number,
                    text.isEmpty() ? ErrorCode.fromNumber(number).text() : text,
                    response.getError().getUserMessage());
        }
        return response;
    }
}
