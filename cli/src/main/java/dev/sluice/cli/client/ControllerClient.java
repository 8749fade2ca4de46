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
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

/**
 * Sends one request to the controller and returns its response, on a fresh connection each
 * time (the command socket answers one frame per request; a command makes at most a few
 * calls, so connection reuse would buy nothing measurable against a JVM start).
 *
 * <p>Controllers are tried in {@code SlurmctldHost} order, as Slurm fails over to a backup;
 * only when none accepts a connection does the call fail with
 * {@link ErrorCode#CONNECTION_REFUSED}, whose text is Slurm's "Unable to contact slurm
 * controller (connect failure)". Not thread-safe; a command uses it from one thread.
 */
public final class ControllerClient {
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    // Slurm's MessageTimeout default is 10 s; a listing of a large cluster may take longer
    // to serialise than to connect, so reads get more room.
    private static final int READ_TIMEOUT_MS = 60_000;

    private final List<ControllerAddress> controllers;
    private final Caller caller;
    private long nextRequestId = 1;

    public ControllerClient(List<ControllerAddress> controllers, Caller caller) {
        this.controllers = List.copyOf(controllers);
        this.caller = requireNonNull(caller, "caller is null");
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
        return call(request, controllers);
    }

    /** The configured controllers, primary first. */
    public List<ControllerAddress> controllers() {
        return controllers;
    }

    /** Like {@link #call(ClientRequest.Builder)}, against one controller only. */
    public ClientResponse callOne(ControllerAddress controller, ClientRequest.Builder request)
            throws ControllerException {
        return call(request, List.of(controller));
    }

    private ClientResponse call(ClientRequest.Builder request, List<ControllerAddress> targets)
            throws ControllerException {
        ClientRequest message = request.setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(nextRequestId++)
                .setIdentity(Identity.newBuilder()
                        .setUid((int) caller.uid())
                        .setGid((int) caller.gid())
                        .setUserName(caller.userName())
                        .setHost(caller.host()))
                .build();
        for (ControllerAddress address : targets) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(address.host(), address.port()), CONNECT_TIMEOUT_MS);
            } catch (IOException e) {
                closeQuietly(socket);
                continue;
            }
            try (socket) {
                socket.setSoTimeout(READ_TIMEOUT_MS);
                socket.setTcpNoDelay(true);
                Frames.write(message, new BufferedOutputStream(socket.getOutputStream()));
                ClientResponse response =
                        Frames.read(ClientResponse.parser(), new BufferedInputStream(socket.getInputStream()));
                if (response.hasError() && response.getError().getCode() != 0) {
                    String text = response.getError().getMessage();
                    int number = response.getError().getCode();
                    throw new ControllerException(
                            number,
                            text.isEmpty() ? ErrorCode.fromNumber(number).text() : text);
                }
                return response;
            } catch (IOException e) {
                throw new ControllerException(ErrorCode.COMMUNICATIONS_CONNECTION_ERROR);
            }
        }
        throw new ControllerException(ErrorCode.CONNECTION_REFUSED);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing was sent on it
        }
    }
}
