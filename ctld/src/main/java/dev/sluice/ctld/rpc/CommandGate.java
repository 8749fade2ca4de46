package dev.sluice.ctld.rpc;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.log.QuietLog;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.SlurmError;
import java.time.InstantSource;

/**
 * Where a command frame becomes a request from a known user: the only place the controller
 * decides who is asking. Over TCP the frame's credential must verify (cluster credential bound
 * to the request bytes, or a SLURM_JWT); on the Unix socket the kernel's peer credentials say
 * who it is. Either way the {@code Identity} the client wrote is thrown away and replaced.
 * Refusals answer Slurm's "Protocol authentication error" and are logged with the reason, one
 * line per peer and request type a minute ({@link QuietLog}).
 */
public final class CommandGate {
    private static final QuietLog quiet = QuietLog.of(CommandGate.class);

    private final ClientApiHandler handler;
    private final RequestAuthenticator authenticator;
    private final InstantSource clock;
    private final RpcTimings timings;

    /** @param timings told the method and duration of every network request served (metrics) */
    public CommandGate(
            ClientApiHandler handler, RequestAuthenticator authenticator, InstantSource clock, RpcTimings timings) {
        this.handler = requireNonNull(handler, "handler is null");
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
        this.clock = requireNonNull(clock, "clock is null");
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
        ClientRequest request = parse(frame);
        ClientResponse response = answer(frame, request, peerHost);
        timings.served(RpcTimings.FRAMES, methodOf(request), System.nanoTime() - start, !response.hasError());
        return response;
    }

    /** Slurm names RPCs by message type ({@code REQUEST_SUBMIT_BATCH_JOB}); so do the metrics. */
    static String methodOf(ClientRequest request) {
        return "REQUEST_" + request.getBodyCase().name();
    }

    private ClientResponse answer(SignedRequest frame, ClientRequest request, String peerHost) {
        Principal who;
        try {
            who = authenticator.authenticate(
                    frame.getRequest().toByteArray(),
                    frame.getCredential(),
                    frame.getUserToken(),
                    frame.getTokenUser(),
                    peerHost,
                    clock.instant());
        } catch (AuthException e) {
            quiet.warn(
                    peerHost,
                    "refused " + methodOf(request),
                    "claiming uid " + request.getIdentity().getUid() + ": " + e.getMessage());
            return refusal(request);
        }
        return handler.handle(request.toBuilder()
                .setIdentity(identity(who.uid(), who.gid(), who.userName(), who.host()))
                .build());
    }

    /** A frame from the Unix socket, whose peer the kernel named. */
    public ClientResponse fromLocalPeer(SignedRequest frame, UserDb.Account peer, String host)
            throws InvalidProtocolBufferException {
        ClientRequest request = parse(frame);
        return handler.handle(request.toBuilder()
                .setIdentity(identity(peer.uid(), peer.gid(), peer.name(), host))
                .build());
    }

    /** Strict decoding: fields this controller does not know are refused, not skipped. */
    static ClientRequest parse(SignedRequest frame) throws InvalidProtocolBufferException {
        if (!frame.getUnknownFields().asMap().isEmpty()) {
            throw new InvalidProtocolBufferException("unknown fields in the request envelope");
        }
        ClientRequest request = ClientRequest.parseFrom(frame.getRequest());
        if (!request.getUnknownFields().asMap().isEmpty()) {
            throw new InvalidProtocolBufferException("unknown fields in the request");
        }
        return request;
    }

    static ClientResponse refusal(ClientRequest request) {
        return ClientResponse.newBuilder()
                .setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(request.getRequestId())
                .setError(SlurmError.newBuilder()
                        .setCode(ErrorCode.AUTHENTICATION_ERROR.number())
                        .setMessage(ErrorCode.AUTHENTICATION_ERROR.text()))
                .build();
    }

    private static Identity identity(long uid, long gid, String name, String host) {
        return Identity.newBuilder()
                .setUid((int) uid)
                .setGid((int) gid)
                .setUserName(name)
                .setHost(host)
                .build();
    }
}
