package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.PingRequest;
import dev.sluice.protocol.v1.PingResponse;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.SlurmError;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The command sockets' one frame handler, for both daemons' envelopes: only a proved sender
 * reaches the dispatch, always under the proved identity, whatever the request claims; every
 * other frame gets exactly Slurm's "Protocol authentication error" or closes the connection.
 */
class TestAuthenticatedFrames {
    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
    private static final Principal ALICE = new Principal(1001, 1001, "alice", List.of(), "login1");
    private static final UserDb USERS = UserDb.of(
            Map.of("alice", new UserDb.Account("alice", 1001, 1001), "bob", new UserDb.Account("bob", 1002, 1002)));
    private static final Identity ROOT_CLAIM = Identity.newBuilder()
            .setUid(0)
            .setGid(0)
            .setUserName("root")
            .setHost("anywhere")
            .build();
    private static final ClientResponse REFUSED = ClientResponse.newBuilder()
            .setProtocolVersion(Frames.PROTOCOL_VERSION)
            .setRequestId(42)
            .setError(SlurmError.newBuilder().setCode(1007).setMessage("Protocol authentication error"))
            .build();

    private final ClusterKeys keys = ClusterKeys.of(TestDaemonAuth.key("k1"));
    private final ClusterKeys otherKeys = ClusterKeys.of(TestDaemonAuth.key("k1"));
    private final UserTokens tokens = new UserTokens(TestDaemonAuth.key("jwt").secret());
    private final List<Message> dispatched = new ArrayList<>();

    private <Q extends Message> Function<Q, ClientResponse> ping() {
        return request -> {
            dispatched.add(request);
            return ClientResponse.newBuilder()
                    .setRequestId(7)
                    .setPing(PingResponse.newBuilder().setController("ctl"))
                    .build();
        };
    }

    private AuthenticatedFrames<ClientRequest, ClientResponse> ctld(Optional<UserTokens> jwt) {
        return new AuthenticatedFrames<>(
                ClientRequest.getDefaultInstance(),
                ClientResponse.getDefaultInstance(),
                r -> "REQUEST_" + r.getBodyCase().name(),
                ping(),
                new RequestAuthenticator(keys, jwt, USERS, "slurmctld"),
                InstantSource.fixed(NOW));
    }

    private static ClientRequest claimingRoot() {
        return ClientRequest.newBuilder()
                .setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(42)
                .setIdentity(ROOT_CLAIM)
                .setPing(PingRequest.getDefaultInstance())
                .build();
    }

    private static SignedRequest signed(Message request, ClusterKeys by, String audience, Instant at) {
        byte[] body = request.toByteArray();
        return SignedRequest.newBuilder()
                .setRequest(ByteString.copyFrom(body))
                .setCredential(new ClusterCredentials(by).issue(ALICE, audience, body, at, Duration.ofMinutes(5)))
                .build();
    }

    private static Identity identity(long uid, String name, String host) {
        return Identity.newBuilder()
                .setUid((int) uid)
                .setGid((int) uid)
                .setUserName(name)
                .setHost(host)
                .build();
    }

    @Test
    void aSignedRequestReachesTheDispatchAsItsSignerWhateverItClaims() throws Exception {
        var served = ctld(Optional.empty()).fromNetwork(signed(claimingRoot(), keys, "slurmctld", NOW), "10.0.0.9");
        assertThat(served.answer().getPing().getController()).isEqualTo("ctl");
        assertThat(served.request()).isEqualTo(claimingRoot());
        assertThat(dispatched)
                .containsExactly(claimingRoot().toBuilder()
                        .setIdentity(identity(1001, "alice", "login1"))
                        .build());
    }

    @Test
    void whatDoesNotProveItsSenderIsRefusedAndReachesNoDispatch() throws Exception {
        ClientRequest request = claimingRoot();
        byte[] otherBody = request.toBuilder().setRequestId(43).build().toByteArray();
        List<SignedRequest> unproved = List.of(
                SignedRequest.newBuilder().setRequest(request.toByteString()).build(),
                signed(request, otherKeys, "slurmctld", NOW),
                signed(request, keys, "slurmdbd", NOW),
                signed(request, keys, "slurmctld", NOW.minus(Duration.ofMinutes(10))),
                signed(request, keys, "slurmctld", NOW).toBuilder()
                        .setCredential(new ClusterCredentials(keys)
                                .issue(ALICE, "slurmctld", otherBody, NOW, Duration.ofMinutes(5)))
                        .build(),
                SignedRequest.newBuilder()
                        .setRequest(request.toByteString())
                        .setUserToken(tokens.mint("alice", NOW, Duration.ofMinutes(5)))
                        .build());
        var frames = ctld(Optional.empty());
        for (SignedRequest frame : unproved) {
            var served = frames.fromNetwork(frame, "10.0.0.9");
            assertThat(served.answer()).as(frame.toString()).isEqualTo(REFUSED);
            assertThat(served.request()).isEqualTo(request);
        }
        assertThat(dispatched).isEmpty();
    }

    @Test
    void aCredentialServesOnce() throws Exception {
        var frames = ctld(Optional.empty());
        SignedRequest once = signed(claimingRoot(), keys, "slurmctld", NOW);
        assertThat(frames.fromNetwork(once, "10.0.0.9").answer().hasError()).isFalse();
        assertThat(frames.fromNetwork(once, "10.0.0.9").answer()).isEqualTo(REFUSED);
        assertThat(dispatched).hasSize(1);
    }

    @Test
    void aTokenUserIsWhoTheUserDatabaseSaysFromThePeersHost() throws Exception {
        var frames = ctld(Optional.of(tokens));
        SignedRequest byToken = SignedRequest.newBuilder()
                .setRequest(claimingRoot().toByteString())
                .setUserToken(tokens.mint("bob", NOW, Duration.ofMinutes(5)))
                .build();
        assertThat(frames.fromNetwork(byToken, "10.0.0.9").answer().hasError()).isFalse();
        assertThat(dispatched)
                .containsExactly(claimingRoot().toBuilder()
                        .setIdentity(identity(1002, "bob", "10.0.0.9"))
                        .build());

        SignedRequest nobodyHere = byToken.toBuilder()
                .setUserToken(tokens.mint("mallory", NOW, Duration.ofMinutes(5)))
                .build();
        assertThat(frames.fromNetwork(nobodyHere, "10.0.0.9").answer()).isEqualTo(REFUSED);
        assertThat(dispatched).hasSize(1);
    }

    @Test
    void unknownFieldsCloseTheConnectionEvenWhenSigned() {
        var frames = ctld(Optional.empty());
        UnknownFieldSet extra = UnknownFieldSet.newBuilder()
                .addField(999, UnknownFieldSet.Field.newBuilder().addVarint(1).build())
                .build();
        SignedRequest inEnvelope = signed(claimingRoot(), keys, "slurmctld", NOW).toBuilder()
                .setUnknownFields(extra)
                .build();
        SignedRequest inRequest =
                signed(claimingRoot().toBuilder().setUnknownFields(extra).build(), keys, "slurmctld", NOW);
        SignedRequest notARequest = SignedRequest.newBuilder()
                .setRequest(ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xff}))
                .build();
        assertThatThrownBy(() -> frames.fromNetwork(inEnvelope, "10.0.0.9"))
                .isInstanceOf(InvalidProtocolBufferException.class)
                .hasMessage("unknown fields in the request envelope");
        assertThatThrownBy(() -> frames.fromNetwork(inRequest, "10.0.0.9"))
                .isInstanceOf(InvalidProtocolBufferException.class)
                .hasMessage("unknown fields in the request");
        assertThatThrownBy(() -> frames.fromNetwork(notARequest, "10.0.0.9"))
                .isInstanceOf(InvalidProtocolBufferException.class);
        assertThatThrownBy(() ->
                        frames.fromLocalPeer(inRequest, USERS.byName("bob").orElseThrow(), "ctl"))
                .isInstanceOf(InvalidProtocolBufferException.class);
        assertThat(dispatched).isEmpty();
    }

    @Test
    void aLocalPeerIsWhoTheKernelSaidAndNeedsNoCredential() throws Exception {
        SignedRequest bare = SignedRequest.newBuilder()
                .setRequest(claimingRoot().toByteString())
                .build();
        ClientResponse answer =
                ctld(Optional.empty()).fromLocalPeer(bare, USERS.byName("bob").orElseThrow(), "ctl");
        assertThat(answer.getPing().getController()).isEqualTo("ctl");
        assertThat(dispatched)
                .containsExactly(claimingRoot().toBuilder()
                        .setIdentity(identity(1002, "bob", "ctl"))
                        .build());
    }

    @Test
    void theAccountingDaemonsEnvelopeGoesTheSameWay() throws Exception {
        List<DbdRequest> seen = new ArrayList<>();
        var frames = new AuthenticatedFrames<DbdRequest, DbdResponse>(
                DbdRequest.getDefaultInstance(),
                DbdResponse.getDefaultInstance(),
                r -> r.getBodyCase().name(),
                r -> {
                    seen.add(r);
                    return DbdResponse.getDefaultInstance();
                },
                new RequestAuthenticator(keys, Optional.empty(), USERS, "slurmdbd"),
                InstantSource.fixed(NOW));
        DbdRequest query = DbdRequest.newBuilder()
                .setRequestId(5)
                .setIdentity(ROOT_CLAIM)
                .setQueryJobs(JobQuery.getDefaultInstance())
                .build();
        assertThat(frames.fromNetwork(signed(query, keys, "slurmdbd", NOW), "10.0.0.9")
                        .answer())
                .isEqualTo(DbdResponse.getDefaultInstance());
        assertThat(seen)
                .containsExactly(query.toBuilder()
                        .setIdentity(identity(1001, "alice", "login1"))
                        .build());

        assertThat(frames.fromNetwork(signed(query, keys, "slurmctld", NOW), "10.0.0.9")
                        .answer())
                .isEqualTo(DbdResponse.newBuilder()
                        .setProtocolVersion(Frames.PROTOCOL_VERSION)
                        .setRequestId(5)
                        .setError(REFUSED.getError())
                        .build());
        assertThat(seen).hasSize(1);
    }

    @Test
    void onlyCommandEnvelopesAreAccepted() {
        var authenticator = new RequestAuthenticator(keys, Optional.empty(), USERS, "slurmctld");
        assertThatThrownBy(() -> new AuthenticatedFrames<>(
                        SignedRequest.getDefaultInstance(),
                        ClientResponse.getDefaultInstance(),
                        r -> "x",
                        r -> ClientResponse.getDefaultInstance(),
                        authenticator,
                        InstantSource.fixed(NOW)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("request_id");
        assertThatThrownBy(() -> new AuthenticatedFrames<>(
                        ClientRequest.getDefaultInstance(),
                        PingResponse.getDefaultInstance(),
                        r -> "x",
                        r -> PingResponse.getDefaultInstance(),
                        authenticator,
                        InstantSource.fixed(NOW)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("protocol_version");
    }

    @Test
    void aConnectionIsAnsweredFrameByFrameUntilItEnds() throws Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (long id : new long[] {1, 2}) {
            Frames.write(
                    SignedRequest.newBuilder()
                            .setRequest(claimingRoot().toBuilder()
                                    .setRequestId(id)
                                    .build()
                                    .toByteString())
                            .build(),
                    wire);
        }
        byte[] whole = wire.toByteArray();
        // The peer closed inside a third frame: what it finished is answered, the rest dropped.
        byte[] cut = Arrays.copyOf(whole, whole.length + 2);
        cut[whole.length] = 10;
        ByteArrayOutputStream answers = new ByteArrayOutputStream();
        AuthenticatedFrames.answerEach(
                new ByteArrayInputStream(cut),
                answers,
                frame -> ClientResponse.newBuilder()
                        .setRequestId(
                                ClientRequest.parseFrom(frame.getRequest()).getRequestId())
                        .build());
        InputStream back = new ByteArrayInputStream(answers.toByteArray());
        assertThat(Frames.readAnswer(ClientResponse.parser(), back).getRequestId())
                .isEqualTo(1);
        assertThat(Frames.readAnswer(ClientResponse.parser(), back).getRequestId())
                .isEqualTo(2);
        assertThat(back.read()).isEqualTo(-1);
    }

    @Test
    void anOversizedFrameIsRefusedBeforeItIsRead() {
        // A varint length of 64 MiB, then a little: refused before anything is allocated.
        InputStream hostile = new ByteArrayInputStream(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, 0x20, 1});
        ByteArrayOutputStream answers = new ByteArrayOutputStream();
        assertThatThrownBy(() -> AuthenticatedFrames.answerEach(hostile, answers, frame -> {
                    throw new AssertionError("answered an oversized frame");
                }))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("outside 0.." + Frames.MAX_FRAME_BYTES);
        assertThat(answers.size()).isZero();
    }
}
