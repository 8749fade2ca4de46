package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.SecuredController.ROOT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.protocol.v1.PingRequest;
import dev.sluice.protocol.v1.SlurmctldApiGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Programs on the controller's gRPC API authenticate with a SLURM_JWT or a cluster credential. */
class TestGrpcClientAuthentication {
    @TempDir
    Path dir;

    private static SlurmctldApiGrpc.SlurmctldApiBlockingStub with(ManagedChannel channel, String key, String value) {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER), value);
        return SlurmctldApiGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    @Test
    void callsWithoutAValidTokenOrCredentialAreUnauthenticated() throws Exception {
        ClusterKeys.generate(dir.resolve("jwt_hs256.key"));
        String conf = "AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=" + dir.resolve("jwt_hs256.key");
        try (SecuredController ctld = new SecuredController(dir, conf)) {
            ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", ctld.server.grpcPort())
                    .usePlaintext()
                    .build();
            try {
                PingRequest ping = PingRequest.getDefaultInstance();
                assertThatThrownBy(
                                () -> SlurmctldApiGrpc.newBlockingStub(channel).ping(ping))
                        .isInstanceOfSatisfying(
                                StatusRuntimeException.class,
                                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
                // The old way of saying who one is: metadata naming a uid. Not believed.
                assertThatThrownBy(() -> with(channel, "sluice-uid", "0").ping(ping))
                        .isInstanceOf(StatusRuntimeException.class);

                String token = ctld.config
                        .security()
                        .userTokens()
                        .orElseThrow()
                        .mint("root", Instant.now(), Duration.ofMinutes(5));
                assertThat(with(channel, "authorization", "Bearer " + token)
                                .ping(ping)
                                .getClusterName())
                        .isEqualTo("secure");

                String credential = new ClusterCredentials(ctld.keys)
                        .issue(ROOT, "slurmctld", null, Instant.now(), Duration.ofMinutes(5));
                var signed = with(channel, "sluice-credential", credential);
                assertThat(signed.ping(ping).getClusterName()).isEqualTo("secure");
                // Single use: the same credential a second time is a replay.
                assertThatThrownBy(() -> signed.ping(ping))
                        .isInstanceOfSatisfying(
                                StatusRuntimeException.class,
                                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
            } finally {
                channel.shutdownNow();
            }
        }
    }
}
