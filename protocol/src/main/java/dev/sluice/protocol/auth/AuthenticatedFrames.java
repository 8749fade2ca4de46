package dev.sluice.protocol.auth;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.log.QuietLog;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.SlurmError;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.InstantSource;
import java.util.function.Function;

/**
 * Where a command-socket frame becomes a request from a known user, for every daemon that has
 * one (sluice-ctld's {@code ClientRequest}, sluice-dbd's {@code DbdRequest}): the envelope and
 * the request inside are decoded strictly (a field this daemon does not know closes the
 * connection instead of being skipped), the sender is proved — by the kernel's peer credentials
 * on a Unix socket, otherwise by what rides with the frame ({@link RequestAuthenticator}) — and
 * the {@code Identity} the client wrote is thrown away and replaced by the proved one before the
 * daemon's own dispatch sees the request. A frame that does not prove its sender gets Slurm's
 * "Protocol authentication error" and reaches no dispatch; the refusal is logged with the reason
 * and the uid the request claimed, one line per peer and request type a minute ({@link
 * QuietLog}).
 *
 * <p>Generic over the daemon's envelope pair through protobuf's descriptors: every command
 * request carries {@code uint64 request_id} and {@code Identity identity}, every answer {@code
 * uint32 protocol_version}, {@code uint64 request_id} and {@code SlurmError error}. The
 * constructor checks both shapes, so an envelope without them fails when the daemon starts, not
 * on the first refusal.
 *
 * @param <Q> the daemon's request envelope
 * @param <A> the daemon's answer envelope
 */
public final class AuthenticatedFrames<Q extends Message, A extends Message> {
    private static final QuietLog quiet = QuietLog.of(AuthenticatedFrames.class);

    private static final SlurmError AUTHENTICATION_ERROR = SlurmError.newBuilder()
            .setCode(ErrorCode.AUTHENTICATION_ERROR.number())
            .setMessage(ErrorCode.AUTHENTICATION_ERROR.text())
            .build();

    private final Q requests;
    private final A answers;
    private final FieldDescriptor requestId;
    private final FieldDescriptor identity;
    private final FieldDescriptor answerVersion;
    private final FieldDescriptor answerId;
    private final FieldDescriptor answerError;
    private final Function<? super Q, String> method;
    private final Function<? super Q, ? extends A> dispatch;
    private final RequestAuthenticator authenticator;
    private final InstantSource clock;

    /** What one network frame came to: the request as its sender wrote it, and the answer. */
    public record Answered<Q, A>(Q request, A answer) {}

    /** Answers one frame; an {@link IOException} closes the connection it came on. */
    @FunctionalInterface
    public interface FrameAnswerer {
        Message answer(SignedRequest frame) throws IOException;
    }

    /**
     * @param requests the request envelope's default instance (its parser and shape)
     * @param answers the answer envelope's default instance (the shape of a refusal)
     * @param method names a request in the log ({@code REQUEST_PING}); fixed text, not the
     *     sender's
     * @param dispatch the daemon's own handling, given only requests whose identity was proved
     */
    public AuthenticatedFrames(
            Q requests,
            A answers,
            Function<? super Q, String> method,
            Function<? super Q, ? extends A> dispatch,
            RequestAuthenticator authenticator,
            InstantSource clock) {
        this.requests = requireNonNull(requests, "requests is null");
        this.answers = requireNonNull(answers, "answers is null");
        this.method = requireNonNull(method, "method is null");
        this.dispatch = requireNonNull(dispatch, "dispatch is null");
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
        this.clock = requireNonNull(clock, "clock is null");
        Descriptor q = requests.getDescriptorForType();
        Descriptor a = answers.getDescriptorForType();
        this.requestId = field(q, "request_id", FieldDescriptor.Type.UINT64, null);
        this.identity = field(q, "identity", FieldDescriptor.Type.MESSAGE, Identity.getDescriptor());
        this.answerVersion = field(a, "protocol_version", FieldDescriptor.Type.UINT32, null);
        this.answerId = field(a, "request_id", FieldDescriptor.Type.UINT64, null);
        this.answerError = field(a, "error", FieldDescriptor.Type.MESSAGE, SlurmError.getDescriptor());
    }

    private static FieldDescriptor field(Descriptor message, String name, FieldDescriptor.Type type, Descriptor of) {
        FieldDescriptor f = message.findFieldByName(name);
        if (f == null || f.isRepeated() || f.getType() != type || (of != null && f.getMessageType() != of)) {
            throw new IllegalArgumentException(
                    message.getFullName() + " is not a command envelope: it needs a single " + type + " " + name);
        }
        return f;
    }

    /**
     * A frame that came over the network: answered by the dispatch when its credential or token
     * proves who sent it, refused otherwise.
     *
     * @throws InvalidProtocolBufferException when the frame is not a well-formed request; the
     *     transport closes that connection
     */
    public Answered<Q, A> fromNetwork(SignedRequest frame, String peerHost) throws InvalidProtocolBufferException {
        Q request = parse(frame);
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
                    "refused " + method.apply(request),
                    "claiming uid " + claimed(request).getUid() + ": " + e.getMessage());
            return new Answered<>(request, refusal(request));
        }
        return new Answered<>(
                request, dispatch.apply(stamped(request, who.uid(), who.gid(), who.userName(), who.host())));
    }

    /**
     * A frame from a Unix socket, whose peer the kernel named: nothing in the frame is believed,
     * and none of its credentials is needed.
     */
    public A fromLocalPeer(SignedRequest frame, UserDb.Account peer, String host)
            throws InvalidProtocolBufferException {
        Q request = parse(frame);
        return dispatch.apply(stamped(request, peer.uid(), peer.gid(), peer.name(), host));
    }

    /** Strict decoding: fields this daemon does not know are refused, not skipped. */
    Q parse(SignedRequest frame) throws InvalidProtocolBufferException {
        if (!frame.getUnknownFields().asMap().isEmpty()) {
            throw new InvalidProtocolBufferException("unknown fields in the request envelope");
        }
        @SuppressWarnings("unchecked")
        Q request = (Q) requests.getParserForType().parseFrom(frame.getRequest());
        if (!request.getUnknownFields().asMap().isEmpty()) {
            throw new InvalidProtocolBufferException("unknown fields in the request");
        }
        return request;
    }

    /**
     * Answers the frames of one blocking connection in turn until the peer closes it, between
     * frames or inside one. Each is read within {@link Frames#MAX_FRAME_BYTES}, refused before
     * anything is allocated when its length says more.
     *
     * @throws IOException when a frame is malformed or the connection fails: the caller closes it
     */
    public static void answerEach(InputStream in, OutputStream out, FrameAnswerer answerer) throws IOException {
        while (true) {
            SignedRequest frame;
            try {
                frame = Frames.read(SignedRequest.parser(), in);
            } catch (EOFException e) {
                return;
            }
            Frames.writeAnswer(answerer.answer(frame), out);
        }
    }

    private Identity claimed(Q request) {
        return (Identity) request.getField(identity);
    }

    @SuppressWarnings("unchecked")
    private Q stamped(Q request, long uid, long gid, String name, String host) {
        Identity proved = Identity.newBuilder()
                .setUid((int) uid)
                .setGid((int) gid)
                .setUserName(name)
                .setHost(host)
                .build();
        return (Q) request.toBuilder().setField(identity, proved).build();
    }

    @SuppressWarnings("unchecked")
    private A refusal(Q request) {
        return (A) answers.newBuilderForType()
                .setField(answerVersion, Frames.PROTOCOL_VERSION)
                .setField(answerId, request.getField(requestId))
                .setField(answerError, AUTHENTICATION_ERROR)
                .build();
    }
}
