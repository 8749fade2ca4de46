package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.auth.JobCredentials;
import dev.sluice.protocol.v1.HeartbeatRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.NodeControlGrpc;
import dev.sluice.protocol.v1.NodeRegistryGrpc;
import dev.sluice.protocol.v1.RegisterNodeRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemons of a real cluster, attacked from outside: whoever lacks the cluster key reaches
 * neither the controller's node service nor a node daemon, and a node daemon runs a launch only
 * with a job credential the controller made for it, once.
 */
class TestDaemonAuthEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static ManagedChannel toCtld;
    private static ManagedChannel toNode;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        try {
            cluster.start();
        } catch (RuntimeException e) {
            throw new AssertionError(cluster.logs(), e);
        }
        toCtld = NettyChannelBuilder.forAddress("127.0.0.1", cluster.layout().grpcPort())
                .usePlaintext()
                .build();
        toNode = NettyChannelBuilder.forAddress(
                        "127.0.0.1", cluster.layout().nodePorts().get(0))
                .usePlaintext()
                .build();
    }

    @AfterAll
    static void down() throws Exception {
        if (toCtld != null) {
            toCtld.shutdownNow();
            toNode.shutdownNow();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void the_controller_refuses_node_traffic_without_the_cluster_key() throws Exception {
        RegisterNodeRequest impostor = RegisterNodeRequest.newBuilder()
                .setName("node1")
                .setAddr("127.0.0.1")
                .setPort(1)
                .build();
        assertRefused(
                () -> NodeRegistryGrpc.newBlockingStub(toCtld).register(impostor),
                Status.Code.UNAUTHENTICATED,
                "Protocol authentication error: no credential");
        assertRefused(
                () -> NodeRegistryGrpc.newBlockingStub(toCtld)
                        .withInterceptors(otherCluster().client(DaemonAuth.CTLD))
                        .heartbeat(
                                HeartbeatRequest.newBuilder().setName("node1").build()),
                Status.Code.UNAUTHENTICATED,
                "signature does not match");
        assertThat(Files.readString(cluster.layout().logDir().resolve("ctld.log")))
                .contains("refused sluice.v1.NodeRegistry/Register from 127.0.0.1: no credential")
                .contains("refused sluice.v1.NodeRegistry/Heartbeat from 127.0.0.1:");
        // The real node is still registered and serving: the impostor changed nothing.
        assertThat(LocalCluster.allRegistered(cluster.layout(), 1)).isTrue();
    }

    @Test
    void a_node_daemon_runs_a_launch_only_with_a_fresh_job_credential() throws Exception {
        Path marker = cluster.workDir().resolve("launched-by-credential");
        LaunchBatchJobRequest launch = launchOf(900001, "cred", marker);
        ClusterKeys keys = ClusterKeys.load(cluster.keyFile());
        DaemonAuth controller = DaemonAuth.forThisProcess(keys, "localhost", List.of(), Clock.systemUTC());

        assertRefused(
                () -> NodeControlGrpc.newBlockingStub(toNode).launchBatchJob(launch),
                Status.Code.UNAUTHENTICATED,
                "Protocol authentication error: no credential");
        assertRefused(
                () -> node(otherCluster()).launchBatchJob(launch),
                Status.Code.UNAUTHENTICATED,
                "signature does not match");
        // With the cluster key but no job credential: not a launch the controller made.
        assertRefused(
                () -> node(controller).launchBatchJob(launch),
                Status.Code.PERMISSION_DENIED,
                "Invalid job credential: the launch carries none");

        LaunchBatchJobRequest signed = JobCredentials.sign(
                launch, "node1", controller.credentials(), Clock.systemUTC().instant());
        LaunchBatchJobRequest altered = signed.toBuilder()
                .setSpec(signed.getSpec().toBuilder()
                        .setScript(com.google.protobuf.ByteString.copyFromUtf8(
                                "#!/bin/sh\necho altered >> " + marker + "\n")))
                .build();
        assertRefused(
                () -> node(controller).launchBatchJob(altered),
                Status.Code.PERMISSION_DENIED,
                "Invalid job credential: credential was issued for a different request");
        LaunchBatchJobRequest forNode2 = JobCredentials.sign(
                launch, "node2", controller.credentials(), Clock.systemUTC().instant());
        assertRefused(
                () -> node(controller).launchBatchJob(forNode2),
                Status.Code.PERMISSION_DENIED,
                "issued for node node2, this is node1");

        node(controller).launchBatchJob(signed);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(marker));
        assertRefused(
                () -> node(controller).launchBatchJob(signed),
                Status.Code.PERMISSION_DENIED,
                "Job credential replayed");
        assertThat(Files.readString(marker)).isEqualTo("ran\n");
        assertThat(Files.readString(cluster.layout().logDir().resolve("node1.log")))
                .contains("refused launch of job 900001: Job credential replayed");
    }

    /**
     * The controller signs each launch attempt afresh, so a retry of a launch whose first answer
     * came late (a busy node) is no replay: the node itself must know the run already happened,
     * even once its end was reported and its spool forgotten.
     */
    @Test
    void a_launch_sent_again_after_its_run_ended_runs_nothing() throws Exception {
        Path marker = cluster.workDir().resolve("launched-twice");
        LaunchBatchJobRequest launch = launchOf(900002, "twice", marker);
        DaemonAuth controller = DaemonAuth.forThisProcess(
                ClusterKeys.load(cluster.keyFile()), "localhost", List.of(), Clock.systemUTC());
        node(controller)
                .launchBatchJob(JobCredentials.sign(
                        launch,
                        "node1",
                        controller.credentials(),
                        Clock.systemUTC().instant()));
        Path log = cluster.layout().logDir().resolve("node1.log");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(log).contains("job 900002 ended"));
        // Its report delivered, the node keeps nothing of the job in its spool.
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try (var paths = Files.walk(stateDir)) {
                return paths.noneMatch(p -> p.getFileName().toString().equals("job900002"));
            }
        });
        node(controller)
                .launchBatchJob(JobCredentials.sign(
                        launch,
                        "node1",
                        controller.credentials(),
                        Clock.systemUTC().instant()));
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        Files.readString(log).contains("job 900002 already ran here; ignoring the repeated launch"));
        assertThat(Files.readString(marker)).isEqualTo("ran\n");
    }

    /**
     * Launches sent together are each held to their own job credential: the forged one is
     * refused with its reason in its place, its neighbours run, and one credential does not vouch
     * for another launch of the same call.
     */
    @Test
    void launches_sent_together_run_only_with_their_own_credentials() throws Exception {
        Path good = cluster.workDir().resolve("together-good");
        Path forged = cluster.workDir().resolve("together-forged");
        DaemonAuth controller = DaemonAuth.forThisProcess(
                ClusterKeys.load(cluster.keyFile()), "localhost", List.of(), Clock.systemUTC());
        java.time.Instant now = Clock.systemUTC().instant();
        LaunchBatchJobRequest signed =
                JobCredentials.sign(launchOf(900003, "together", good), "node1", controller.credentials(), now);
        // Another job's script under the first one's credential.
        LaunchBatchJobRequest borrowed = launchOf(900004, "borrowed", forged).toBuilder()
                .setCredential(signed.getCredential())
                .build();
        LaunchBatchJobRequest unsigned = launchOf(900005, "unsigned", forged);
        var answer = node(controller)
                .launchBatchJobs(dev.sluice.protocol.v1.LaunchBatchJobsRequest.newBuilder()
                        .addLaunches(borrowed)
                        .addLaunches(signed)
                        .addLaunches(unsigned)
                        .build());
        assertThat(answer.getOutcomesList())
                .extracting(o -> o.getJobId(), o -> o.getRefused(), o -> o.getError())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                900004, true, "Invalid job credential: credential was issued for a different request"),
                        org.assertj.core.groups.Tuple.tuple(900003, false, ""),
                        org.assertj.core.groups.Tuple.tuple(
                                900005, true, "Invalid job credential: the launch carries none"));
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(good));
        assertThat(Files.readString(good)).isEqualTo("ran\n");
        assertThat(forged).doesNotExist();
    }

    /** A one-task launch on node1 whose script appends "ran" to {@code marker}. */
    private static LaunchBatchJobRequest launchOf(int jobId, String name, Path marker) {
        return LaunchBatchJobRequest.newBuilder()
                .setJobId(jobId)
                .setSpec(JobSpec.newBuilder()
                        .setName(name)
                        .setOwner(me())
                        .setWorkDir(cluster.workDir().toString())
                        .setScript(
                                com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\necho ran >> " + marker + "\n")))
                .setNumNodes(1)
                .setCpusOnNode(1)
                .setNumTasks(1)
                .setNodeList("node1")
                .build();
    }

    @Test
    void a_node_daemon_without_a_key_does_not_start() throws Exception {
        Path missing = stateDir.resolve("no-such.key");
        Process p = cluster.startNode("keyless", "-N", "node1", "--key-file", missing.toString());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(Files.readString(cluster.layout().logDir().resolve("keyless.log")))
                .contains("sluice-noded: fatal: cluster key " + missing + " not found");
    }

    private static NodeControlGrpc.NodeControlBlockingStub node(DaemonAuth as) {
        return NodeControlGrpc.newBlockingStub(toNode)
                .withInterceptors(as.client(DaemonAuth.NODED))
                .withDeadlineAfter(20, TimeUnit.SECONDS);
    }

    /** Signs as root would on another cluster: right account, wrong key. */
    private static DaemonAuth otherCluster() {
        byte[] secret = new byte[64];
        new SecureRandom().nextBytes(secret);
        ClusterKeys other = ClusterKeys.of(new ClusterKeys.Key("slurm.key", secret));
        return new DaemonAuth(
                other, new Principal(0, 0, "root", List.of(), "intruder"), java.util.Set.of(0L), Clock.systemUTC());
    }

    private static Identity me() {
        Principal p = DaemonAuth.thisProcess("localhost");
        return Identity.newBuilder()
                .setUid((int) p.uid())
                .setGid((int) p.gid())
                .setUserName(p.userName())
                .build();
    }

    private static void assertRefused(ThrowingCallable call, Status.Code code, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(code);
            assertThat(e.getStatus().getDescription()).contains(message);
        });
    }
}
