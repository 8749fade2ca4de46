package dev.sluice.ctld.rpc;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.auth.UserDb;
import dev.sluice.protocol.auth.AuthenticatedFrames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.SignedRequest;
import java.time.InstantSource;

/**
 * Where a command frame becomes a request from a known user: the only place the controller
 * decides who is asking. Over TCP the frame's credential must verify (cluster credential bound
 * to the request bytes, or a SLURM_JWT); on the Unix socket the kernel's peer credentials say
 * who it is. Either way the {@code Identity} the client wrote is thrown away and replaced. The
 * decoding, the proof and the stamping are sluice-dbd's too ({@link AuthenticatedFrames}); what
 * is the controller's own is the dispatch to {@link ClientApiHandler} and the RPC metrics.
 */
public final class CommandGate {
    private final AuthenticatedFrames<ClientRequest, ClientResponse> frames;
    private final RpcTimings timings;

    /** @param timings told the method and duration of every network request served (metrics) */
    public CommandGate(
            ClientApiHandler handler, RequestAuthenticator authenticator, InstantSource clock, RpcTimings timings) {
        requireNonNull(handler, "handler is null");
        this.frames = new AuthenticatedFrames<>(
                ClientRequest.getDefaultInstance(),
                ClientResponse.getDefaultInstance(),
                CommandGate::methodOf,
                handler::handle,
                authenticator,
                clock);
        this.timings = requireNonNull(timings, "timings is null");
    }

    /**
     * A frame that came over the network.
     *
     * @throws InvalidProtocolBufferException when the frame is not a well-formed request; the
     *     transport closes that connection
     */
    public ClientResponse fromNetwork(SignedRequest frame, String peerHost) throws InvalidProtocolBufferException {
        long start = System.nanoTime();
        AuthenticatedFrames.Answered<ClientRequest, ClientResponse> served = frames.fromNetwork(frame, peerHost);
        ClientResponse response = served.answer();
        timings.served(RpcTimings.FRAMES, methodOf(served.request()), System.nanoTime() - start, !response.hasError());
        return response;
    }

    /** Slurm names RPCs by message type ({@code REQUEST_SUBMIT_BATCH_JOB}); so do the metrics. */
    static String methodOf(ClientRequest request) {
        return "REQUEST_" + request.getBodyCase().name();
    }

    /** A frame from the Unix socket, whose peer the kernel named. */
    public ClientResponse fromLocalPeer(SignedRequest frame, UserDb.Account peer, String host)
            throws InvalidProtocolBufferException {
        return frames.fromLocalPeer(frame, peer, host);
    }
}
