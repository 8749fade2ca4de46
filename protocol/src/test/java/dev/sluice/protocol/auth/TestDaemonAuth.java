package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.protocol.v1.HeartbeatRequest;
import dev.sluice.protocol.v1.HeartbeatResponse;
import dev.sluice.protocol.v1.NodeRegistryGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The controller's node-registry service behind the credential check, called as a node would. */
class TestDaemonAuth {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final Principal NODE = new Principal(0, 0, "root", List.of(), "node1");

    private final ClusterKeys.Key oldKey = key("old");
    private final ClusterKeys.Key newKey = key("new");
    private final List<String> served = new CopyOnWriteArrayList<>();
    private final DaemonAuth ctld = new DaemonAuth(ClusterKeys.of(oldKey), NODE, Set.of(0L), clock(NOW));
    private Server server;
    private ManagedChannel channel;

    private void serve() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .directExecutor()
                .addService(ctld.protect(new Registry(), DaemonAuth.CTLD))
                .build()
                .start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    }

    @AfterEach
    void stop() {
        if (channel != null) {
            channel.shutdownNow();
            server.shutdownNow();
        }
    }

    @Test
    void a_signed_call_reaches_the_service() throws Exception {
        serve();
        HeartbeatResponse r =
                stub(node(ClusterKeys.of(oldKey), NOW), DaemonAuth.CTLD).heartbeat(beat("node1"));
        assertThat(r.getReregister()).isTrue();
        assertThat(served).containsExactly("node1");
    }

    @Test
    void a_call_without_credential_is_refused_and_runs_nothing() throws Exception {
        serve();
        assertRefused(() -> NodeRegistryGrpc.newBlockingStub(channel).heartbeat(beat("node1")), "no credential");
        assertThat(served).isEmpty();
    }

    @Test
    void a_credential_made_with_another_key_is_refused() throws Exception {
        serve();
        DaemonAuth rogue = node(ClusterKeys.of(new ClusterKeys.Key("old", key("x").secret())), NOW);
        assertRefused(() -> stub(rogue, DaemonAuth.CTLD).heartbeat(beat("node1")), "signature does not match");
        DaemonAuth unknown = node(ClusterKeys.of(key("other")), NOW);
        assertRefused(() -> stub(unknown, DaemonAuth.CTLD).heartbeat(beat("node1")), "unknown key 'other'");
        assertThat(served).isEmpty();
    }

    @Test
    void an_expired_credential_is_refused() throws Exception {
        serve();
        DaemonAuth late = node(ClusterKeys.of(oldKey), NOW.minus(DaemonAuth.TTL).minusSeconds(1));
        assertRefused(() -> stub(late, DaemonAuth.CTLD).heartbeat(beat("node1")), "credential expired");
        assertThat(served).isEmpty();
    }

    @Test
    void a_credential_meant_for_another_daemon_is_refused() throws Exception {
        serve();
        assertRefused(
                () -> stub(node(ClusterKeys.of(oldKey), NOW), DaemonAuth.DBD).heartbeat(beat("node1")),
                "not slurmctld");
    }

    @Test
    void a_replayed_credential_is_refused() throws Exception {
        serve();
        AtomicReference<String> lifted = new AtomicReference<>();
        capturing(node(ClusterKeys.of(oldKey), NOW), lifted).heartbeat(beat("node1"));
        assertRefused(() -> replay(lifted.get()).heartbeat(beat("node1")), "credential replayed");
        assertThat(served).containsExactly("node1");
    }

    @Test
    void a_credential_moved_to_another_request_is_refused() throws Exception {
        serve();
        AtomicReference<String> lifted = new AtomicReference<>();
        capturing(node(ClusterKeys.of(oldKey), NOW), lifted).heartbeat(beat("node1"));
        served.clear();
        assertRefused(() -> replay(lifted.get()).heartbeat(beat("node2")), "different request");
        assertThat(served).isEmpty();
    }

    @Test
    void a_user_account_with_the_key_is_not_a_daemon() throws Exception {
        serve();
        Principal alice = new Principal(4242, 4242, "alice", List.of(), "login1");
        DaemonAuth user = new DaemonAuth(ClusterKeys.of(oldKey), alice, Set.of(), clock(NOW));
        assertThatThrownBy(() -> stub(user, DaemonAuth.CTLD).heartbeat(beat("node1")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                    assertThat(e.getStatus().getDescription())
                            .startsWith("Access/permission denied")
                            .contains("uid 4242");
                });
        assertThat(served).isEmpty();
    }

    @Test
    void keys_rotate_without_refusing_anyone() throws Exception {
        serve();
        // Step 1: every daemon learns the new key, the old one still signs.
        ctld.reload(ClusterKeys.of(oldKey, newKey));
        DaemonAuth notYetUpdated = node(ClusterKeys.of(oldKey), NOW);
        DaemonAuth updated = node(ClusterKeys.of(newKey, oldKey), NOW);
        stub(notYetUpdated, DaemonAuth.CTLD).heartbeat(beat("a"));
        stub(updated, DaemonAuth.CTLD).heartbeat(beat("b"));
        // Step 2: the new key signs everywhere; the old one is retired.
        ctld.reload(ClusterKeys.of(newKey));
        stub(updated, DaemonAuth.CTLD).heartbeat(beat("c"));
        assertRefused(() -> stub(notYetUpdated, DaemonAuth.CTLD).heartbeat(beat("d")), "unknown key 'old'");
        assertThat(served).containsExactly("a", "b", "c");
    }

    private NodeRegistryGrpc.NodeRegistryBlockingStub stub(DaemonAuth auth, String audience) {
        return NodeRegistryGrpc.newBlockingStub(channel).withInterceptors(auth.client(audience));
    }

    /** A signed stub that also lets the test see the credential on the wire. */
    private NodeRegistryGrpc.NodeRegistryBlockingStub capturing(DaemonAuth auth, AtomicReference<String> into) {
        return NodeRegistryGrpc.newBlockingStub(channel)
                .withInterceptors(capture(into))
                .withInterceptors(auth.client(DaemonAuth.CTLD));
    }

    private NodeRegistryGrpc.NodeRegistryBlockingStub replay(String token) {
        Metadata headers = new Metadata();
        headers.put(DaemonAuth.CREDENTIAL, token);
        return NodeRegistryGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    /** Records the credential the signing interceptor (wrapped around this one) attached. */
    private static ClientInterceptor capture(AtomicReference<String> into) {
        return new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> m, CallOptions o, Channel next) {
                return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(m, o)) {
                    @Override
                    public void start(Listener<R> listener, Metadata headers) {
                        into.set(headers.get(DaemonAuth.CREDENTIAL));
                        super.start(listener, headers);
                    }
                };
            }
        };
    }

    private static void assertRefused(Runnable call, String reason) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
            assertThat(e.getStatus().getDescription())
                    .startsWith("Protocol authentication error")
                    .contains(reason);
        });
    }

    private static DaemonAuth node(ClusterKeys keys, Instant now) {
        return new DaemonAuth(keys, NODE, Set.of(0L), clock(now));
    }

    private static InstantSource clock(Instant now) {
        return InstantSource.fixed(now);
    }

    static ClusterKeys.Key key(String id) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return new ClusterKeys.Key(id, secret);
    }

    private static HeartbeatRequest beat(String node) {
        return HeartbeatRequest.newBuilder().setName(node).build();
    }

    private final class Registry extends NodeRegistryGrpc.NodeRegistryImplBase {
        @Override
        public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> observer) {
            served.add(request.getName());
            observer.onNext(HeartbeatResponse.newBuilder().setReregister(true).build());
            observer.onCompleted();
        }
    }

    @Test
    void aBodyIsReadWholeWhateverItsStreamSaysItHolds() throws Exception {
        byte[] body = new byte[40_000];
        new SecureRandom().nextBytes(body);
        for (int said : new int[] {0, 1, 100, body.length, body.length + 5}) {
            java.io.InputStream in = new java.io.ByteArrayInputStream(body) {
                private boolean asked;

                @Override
                public synchronized int available() {
                    // Says {@code said} the first time, what is left after (as a stream may).
                    if (!asked) {
                        asked = true;
                        return said;
                    }
                    return super.available();
                }
            };
            assertThat(DaemonAuth.readAll(in)).as("said " + said).isEqualTo(body);
        }
        HeartbeatRequest request =
                HeartbeatRequest.newBuilder().setName("n1").addRunningJobIds(7).build();
        try (java.io.InputStream in = NodeRegistryGrpc.getHeartbeatMethod().streamRequest(request)) {
            assertThat(DaemonAuth.readAll(in)).isEqualTo(request.toByteArray());
        }
    }
}
