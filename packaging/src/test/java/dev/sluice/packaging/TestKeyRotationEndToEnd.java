package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.HeartbeatRequest;
import dev.sluice.protocol.v1.NodeRegistryGrpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running cluster moves from one cluster key to another in three {@code scontrol reconfigure}
 * steps, with jobs running between them and no daemon ever refused; afterwards the old key opens
 * nothing.
 */
class TestKeyRotationEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static final byte[] OLD = secret();
    private static final byte[] NEW = secret();

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        writeKeySet(key("old", OLD, true));
        try {
            cluster.start();
        } catch (RuntimeException e) {
            throw new AssertionError(cluster.logs(), e);
        }
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void the_cluster_key_rotates_without_downtime() throws Exception {
        runJob(1);
        // 1: everyone learns the new key; the old one still signs.
        rotate(key("old", OLD, true), key("new", NEW, false));
        runJob(2);
        // 2: the new key signs; credentials under the old one are still accepted.
        rotate(key("new", NEW, true), key("old", OLD, false));
        runJob(3);
        // 3: the old key is retired.
        rotate(key("new", NEW, true));
        runJob(4);
        assertThat(LocalCluster.allRegistered(cluster.layout(), 1)).isTrue();
        assertThat(Files.readString(cluster.layout().logDir().resolve("ctld.log")))
                .doesNotContain("refused");
        assertThat(Files.readString(cluster.layout().logDir().resolve("node1.log")))
                .doesNotContain("refused");

        ManagedChannel channel = NettyChannelBuilder.forAddress(
                        "127.0.0.1", cluster.layout().grpcPort())
                .usePlaintext()
                .build();
        try {
            DaemonAuth withOldKey = new DaemonAuth(
                    ClusterKeys.of(new ClusterKeys.Key("old", OLD)),
                    new Principal(0, 0, "root", List.of(), "node1"),
                    Set.of(0L),
                    Clock.systemUTC());
            assertThatThrownBy(() -> NodeRegistryGrpc.newBlockingStub(channel)
                            .withInterceptors(withOldKey.client(DaemonAuth.CTLD))
                            .heartbeat(HeartbeatRequest.newBuilder()
                                    .setName("node1")
                                    .build()))
                    .isInstanceOf(StatusRuntimeException.class)
                    .hasMessageContaining("credential signed with unknown key 'old'");
        } finally {
            channel.shutdownNow();
        }
    }

    private static void rotate(String... keys) throws Exception {
        int before = reconfigurations();
        writeKeySet(keys);
        ClusterProcesses.Result r = cluster.command("scontrol", "reconfigure");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // The node daemon has read the set too once it registers again.
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> reconfigurations() > before);
    }

    private static int reconfigurations() throws Exception {
        Matcher m = Pattern.compile("reconfigured: registering again")
                .matcher(Files.readString(cluster.layout().logDir().resolve("node1.log")));
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static void runJob(int id) throws Exception {
        ClusterProcesses.Result submit = cluster.command("sbatch", "--wrap", "echo rotated");
        assertThat(submit.out()).as(submit.err()).isEqualTo("Submitted batch job " + id + "\n");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(cluster.command("scontrol", "show", "job", Integer.toString(id))
                                .out())
                        .contains("JobState=COMPLETED"));
    }

    private static String key(String id, byte[] secret, boolean signs) {
        return "{\"kty\":\"oct\",\"kid\":\"" + id + "\",\"k\":\""
                + Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\""
                + (signs ? ",\"use\":\"default\"" : "") + "}";
    }

    /** Replaces slurm.jwks as an administrator would: a new file, owner-only, moved into place. */
    private static void writeKeySet(String... keys) throws Exception {
        Path etc = cluster.layout().etc();
        Path tmp = Files.createTempFile(
                etc,
                "jwks",
                ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, "{\"keys\":[" + String.join(",", keys) + "]}");
        Files.move(tmp, etc.resolve(ClusterKeys.KEY_SET_FILE), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static byte[] secret() {
        byte[] s = new byte[32];
        new SecureRandom().nextBytes(s);
        return s;
    }
}
