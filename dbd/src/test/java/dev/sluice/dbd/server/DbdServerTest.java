package dev.sluice.dbd.server;

import static dev.sluice.dbd.store.Records.batch;
import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.dbd.TestKeys;
import dev.sluice.dbd.config.DbdConfig;
import dev.sluice.dbd.config.DbdConfigs;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.AccountingGrpc;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.JobQuery;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
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
        DbdConfig config = new DbdConfig("127.0.0.1", 0, 0, DbdConfigs.embeddedUrl(dir), "", "", 2);
        keys = TestKeys.write(dir.resolve("etc"));
        server = DbdServer.start(config, keys, Clock.systemUTC());
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.grpcPort())
                .usePlaintext()
                .build();
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.close();
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
        var b = batch("alpha", job(4, pending(11, "sim", "kim", 500)), job(6, pending(12, "post", "kim", 501)));
        assertThat(stub.record(b).getAppliedThrough()).isEqualTo(6);
        assertThat(stub.record(b).getAppliedThrough()).isEqualTo(6);

        try (Socket s = new Socket("127.0.0.1", server.commandPort())) {
            DbdRequest req = DbdRequest.newBuilder()
                    .setProtocolVersion(Frames.PROTOCOL_VERSION)
                    .setRequestId(9)
                    .setQueryJobs(JobQuery.newBuilder().addUsers("kim"))
                    .build();
            Frames.write(req, s.getOutputStream());
            DbdResponse resp = Frames.read(DbdResponse.parser(), s.getInputStream());
            assertThat(resp.hasError()).isFalse();
            assertThat(resp.getRequestId()).isEqualTo(9);
            assertThat(resp.getJobs().getJobsList())
                    .extracting(j -> j.getJobId() + ":" + j.getName())
                    .containsExactly("11:sim", "12:post");

            // A second request on the same connection, with a protocol version from elsewhere.
            Frames.write(req.toBuilder().setProtocolVersion(99).build(), s.getOutputStream());
            assertThat(Frames.read(DbdResponse.parser(), s.getInputStream())
                            .getError()
                            .getCode())
                    .isEqualTo(1005);
        }
    }

    @Test
    void recordsWithoutTheClusterKeyAreRefusedAndNotStored() throws Exception {
        var b = batch("alpha", job(4, pending(11, "sim", "kim", 500)));
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
        try (Socket s = new Socket("127.0.0.1", server.commandPort())) {
            Frames.write(
                    DbdRequest.newBuilder()
                            .setProtocolVersion(Frames.PROTOCOL_VERSION)
                            .setQueryJobs(JobQuery.newBuilder().addUsers(user))
                            .build(),
                    s.getOutputStream());
            return Frames.read(DbdResponse.parser(), s.getInputStream());
        }
    }

    @Test
    void aBatchNoRetryCanFixIsRefusedAsInvalid() {
        var stub = signed(keys);
        assertThatThrownBy(() -> stub.record(batch("", job(1, pending(1, "x", "y", 1)))))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    }
}
