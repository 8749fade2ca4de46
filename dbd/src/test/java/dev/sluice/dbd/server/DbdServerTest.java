package dev.sluice.dbd.server;

import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.pending;
import static dev.sluice.dbd.store.Records.wireBatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.dbd.TestKeys;
import dev.sluice.dbd.config.DbdConfig;
import dev.sluice.dbd.config.DbdConfigs;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.AccountingGrpc;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.SignedRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon over its real transports on 127.0.0.1 ephemeral ports, embedded database. */
class DbdServerTest {
    @TempDir
    Path dir;

    private DbdServer server;
    private ManagedChannel channel;
    private ClusterKeys keys;

    @BeforeEach
    void start() throws Exception {
        ClusterKeys.generate(dir.resolve(ClusterKeys.KEY_FILE));
        keys = ClusterKeys.loadFromConfigDir(dir);
        // As `sluice-dbd --port 0`: the kernel's pick, and the gRPC port 100 above it.
        DbdConfig config = new DbdConfig("127.0.0.1", 0, DbdConfig.GRPC_ABOVE, DbdConfigs.embeddedUrl(dir), "", "", 2);
        server = DbdServer.start(config, Clock.systemUTC(), keys, Optional.empty());
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.grpcPort())
                .usePlaintext()
                .build();
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.close();
    }

    @Test
    void onPortZeroTheGrpcPortIsTheBoundCommandPortPlus100AndBothAcceptConnections() throws Exception {
        assertThat(server.commandPort()).isPositive();
        assertThat(server.grpcPort()).isEqualTo(server.commandPort() + DbdConfigs.GRPC_PORT_OFFSET);
        for (int port : List.of(server.commandPort(), server.grpcPort())) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                assertThat(s.isConnected()).isTrue();
            }
        }
    }

    /** The controller's stub: signed with the cluster key by this (daemon) account. */
    private AccountingGrpc.AccountingBlockingStub signed(ClusterKeys with) {
        return AccountingGrpc.newBlockingStub(channel)
                .withInterceptors(DaemonAuth.forThisProcess(with, "ctld", List.of(), Clock.systemUTC())
                        .client(DaemonAuth.DBD));
    }

    @Test
    void recordsSentOverGrpcAreAnsweredOnTheCommandSocket() throws Exception {
        var stub = signed(keys);
        var b = wireBatch("alpha", job(4, pending(11, "sim", "kim", 500)), job(6, pending(12, "post", "kim", 501)));
        assertThat(stub.record(b).getAppliedThrough()).isEqualTo(6);
        assertThat(stub.record(b).getAppliedThrough()).isEqualTo(6);

        try (Socket s = new Socket("127.0.0.1", server.commandPort())) {
            DbdRequest req = DbdRequest.newBuilder()
                    .setProtocolVersion(Frames.PROTOCOL_VERSION)
                    .setRequestId(9)
                    .setQueryJobs(JobQuery.newBuilder().addUsers("kim"))
                    .build();
            Frames.write(signed(req, ROOT, keys), s.getOutputStream());
            DbdResponse resp = Frames.read(DbdResponse.parser(), s.getInputStream());
            assertThat(resp.hasError()).isFalse();
            assertThat(resp.getRequestId()).isEqualTo(9);
            assertThat(resp.getJobs().getJobsList())
                    .extracting(j -> j.getJobId() + ":" + j.getName())
                    .containsExactly("11:sim", "12:post");

            // A second request on the same connection, with a protocol version from elsewhere.
            Frames.write(signed(req.toBuilder().setProtocolVersion(99).build(), ROOT, keys), s.getOutputStream());
            assertThat(Frames.read(DbdResponse.parser(), s.getInputStream())
                            .getError()
                            .getCode())
                    .isEqualTo(1005);
        }
    }

    @Test
    void recordsWithoutTheClusterKeyAreRefusedAndNotStored() throws Exception {
        var b = wireBatch("alpha", job(4, pending(11, "sim", "kim", 500)));
        assertThatThrownBy(() -> AccountingGrpc.newBlockingStub(channel).record(b))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
                    assertThat(e.getStatus().getDescription())
                            .isEqualTo("Protocol authentication error: no credential");
                });
        ClusterKeys otherCluster = TestKeys.write(dir.resolve("other"));
        assertThatThrownBy(() -> signed(otherCluster).record(b))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getDescription()).contains("signature does not match"));
        // A user who somehow holds the key still is not the controller.
        DaemonAuth user = new DaemonAuth(
                keys, new Principal(54321, 54321, "mallory", List.of(), "login"), Set.of(), Clock.systemUTC());
        assertThatThrownBy(() -> AccountingGrpc.newBlockingStub(channel)
                        .withInterceptors(user.client(DaemonAuth.DBD))
                        .record(b))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED));
        assertThat(query("kim").getJobs().getJobsList()).isEmpty();
    }

    private DbdResponse query(String user) throws Exception {
        return ask(signed(
                DbdRequest.newBuilder()
                        .setProtocolVersion(Frames.PROTOCOL_VERSION)
                        .setQueryJobs(JobQuery.newBuilder().addUsers(user))
                        .build(),
                ROOT,
                keys));
    }

    @Test
    void aBatchNoRetryCanFixIsRefusedAsInvalid() {
        var stub = signed(keys);
        assertThatThrownBy(() -> stub.record(wireBatch("", job(1, pending(1, "x", "y", 1)))))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    }

    private static final Principal ROOT = new Principal(0, 0, "root", List.of(), "localhost");
    private static final Principal KIM = new Principal(1001, 1001, "kim", List.of(), "localhost");

    private static SignedRequest signed(DbdRequest request, Principal who, ClusterKeys keys) {
        byte[] body = request.toByteArray();
        return SignedRequest.newBuilder()
                .setRequest(ByteString.copyFrom(body))
                .setCredential(new ClusterCredentials(keys)
                        .issue(who, "slurmdbd", body, Instant.now(), ClusterCredentials.DEFAULT_TTL))
                .build();
    }

    private DbdResponse ask(SignedRequest frame) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.commandPort())) {
            Frames.write(frame, s.getOutputStream());
            return Frames.read(DbdResponse.parser(), s.getInputStream());
        }
    }

    private static DbdRequest.Builder query() {
        return DbdRequest.newBuilder()
                .setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(3)
                // What a forger would write: the daemon never reads it.
                .setIdentity(Identity.newBuilder().setUid(0).setUserName("root"))
                .setQueryJobs(JobQuery.getDefaultInstance());
    }

    @Test
    void aRequestWithoutCredentialOrWithAnotherKeyIsRefused() throws Exception {
        DbdRequest req = query().build();
        DbdResponse bare =
                ask(SignedRequest.newBuilder().setRequest(req.toByteString()).build());
        assertThat(bare.getError().getCode()).isEqualTo(ErrorCode.AUTHENTICATION_ERROR.number());
        assertThat(bare.getError().getMessage()).isEqualTo("Protocol authentication error");

        ClusterKeys.generate(dir.resolve("other.key"));
        ClusterKeys other = ClusterKeys.load(dir.resolve("other.key"));
        assertThat(ask(signed(req, ROOT, other)).getError().getCode())
                .isEqualTo(ErrorCode.AUTHENTICATION_ERROR.number());
        // A credential for the controller is no credential here.
        byte[] body = req.toByteArray();
        SignedRequest forCtld = SignedRequest.newBuilder()
                .setRequest(ByteString.copyFrom(body))
                .setCredential(new ClusterCredentials(keys)
                        .issue(ROOT, "slurmctld", body, Instant.now(), ClusterCredentials.DEFAULT_TTL))
                .build();
        assertThat(ask(forCtld).getError().getCode()).isEqualTo(ErrorCode.AUTHENTICATION_ERROR.number());
        assertThat(ask(signed(req, ROOT, keys)).hasError()).isFalse();
    }

    @Test
    void onlyOperatorsChangeAssociations() throws Exception {
        DbdRequest add = DbdRequest.newBuilder()
                .setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setAddAccounts(
                        AddAccountsRequest.newBuilder().addNames("physics").addClusters("alpha"))
                .build();
        DbdResponse refused = ask(signed(add, KIM, keys));
        assertThat(refused.getError().getMessage()).isEqualTo("Access/permission denied");
        assertThat(ask(signed(add, ROOT, keys)).getError().getCode()).isNotEqualTo(ErrorCode.ACCESS_DENIED.number());
    }

    @Test
    void aNameOrDescriptionWithAControlCharacterIsRefusedEvenForAnOperator() throws Exception {
        DbdRequest add = DbdRequest.newBuilder()
                .setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setAddAccounts(AddAccountsRequest.newBuilder()
                        .addNames("physics")
                        .setDescription("theory\n   chemistry alpha")
                        .addClusters("alpha")
                        .setCommit(true))
                .build();
        DbdResponse refused = ask(signed(add, ROOT, keys));
        assertThat(refused.getError().getCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT.number());
        assertThat(refused.getError().getMessage())
                .isEqualTo("Invalid description: control character \\n is not allowed");
    }
}
