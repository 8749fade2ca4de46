package dev.sluice.ctld.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.config.ConfigText;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.loop.LoopInbox;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchBatchJobResponse;
import dev.sluice.protocol.v1.LaunchBatchJobsRequest;
import dev.sluice.protocol.v1.LaunchBatchJobsResponse;
import dev.sluice.protocol.v1.LaunchOutcome;
import dev.sluice.protocol.v1.NodeControlGrpc;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dispatcher's launches against a node daemon played by a gRPC server: the jobs a batch
 * starts on one node go in one call; what that call did not launch, and every launch to a node
 * daemon that does not know the call, goes alone.
 */
class TestJointLaunches {
    private static final long NOW = 1_800_000_000L;

    @TempDir
    Path dir;

    private Server server;
    private NodeDispatcher dispatcher;
    /** What the node was sent: "alone:ID" or "together:ID,ID,...". */
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (server != null) {
            server.shutdownNow();
        }
    }

    /** A node daemon of today: takes joint launches, failing those {@code refused} names. */
    private final class CurrentNode extends OlderNode {
        private final Set<Integer> refused;

        CurrentNode(Set<Integer> refused) {
            this.refused = refused;
        }

        @Override
        public void launchBatchJobs(LaunchBatchJobsRequest request, StreamObserver<LaunchBatchJobsResponse> observer) {
            calls.add("together:"
                    + String.join(
                            ",",
                            request.getLaunchesList().stream()
                                    .map(l -> Integer.toString(l.getJobId()))
                                    .toList()));
            LaunchBatchJobsResponse.Builder out = LaunchBatchJobsResponse.newBuilder();
            for (LaunchBatchJobRequest launch : request.getLaunchesList()) {
                out.addOutcomes(LaunchOutcome.newBuilder()
                        .setJobId(launch.getJobId())
                        .setError(refused.contains(launch.getJobId()) ? "launch failed: spool full" : ""));
            }
            observer.onNext(out.build());
            observer.onCompleted();
        }
    }

    /** A node daemon from before joint launches: LaunchBatchJobs is UNIMPLEMENTED there. */
    private class OlderNode extends NodeControlGrpc.NodeControlImplBase {
        @Override
        public void launchBatchJob(LaunchBatchJobRequest request, StreamObserver<LaunchBatchJobResponse> observer) {
            assertThat(request.getCredential()).isNotEmpty();
            calls.add("alone:" + request.getJobId());
            observer.onNext(LaunchBatchJobResponse.getDefaultInstance());
            observer.onCompleted();
        }
    }

    @Test
    void theJobsABatchStartsOnANodeGoInOneCall() throws Exception {
        ClusterImage image = threeJobsStartedOn(new CurrentNode(Set.of()));
        dispatcher.executeAll(launches(image), image);
        await().atMost(Duration.ofSeconds(20)).until(() -> calls.size() == 1);
        assertThat(calls).containsExactly("together:1,2,3");
    }

    @Test
    void aLaunchTheJointCallDidNotMakeGoesAgainAlone() throws Exception {
        ClusterImage image = threeJobsStartedOn(new CurrentNode(Set.of(2)));
        dispatcher.executeAll(launches(image), image);
        await().atMost(Duration.ofSeconds(20)).until(() -> calls.size() == 2);
        assertThat(calls).containsExactly("together:1,2,3", "alone:2");
    }

    @Test
    void anOlderNodeDaemonGetsItsLaunchesOneAtATime() throws Exception {
        ClusterImage image = threeJobsStartedOn(new OlderNode());
        dispatcher.executeAll(launches(image), image);
        await().atMost(Duration.ofSeconds(20)).until(() -> calls.size() == 3);
        assertThat(calls).containsExactlyInAnyOrder("alone:1", "alone:2", "alone:3");
        // Known now: the next batch's launches go alone at once.
        calls.clear();
        dispatcher.executeAll(launches(image), image);
        await().atMost(Duration.ofSeconds(20)).until(() -> calls.size() == 3);
        assertThat(calls).containsExactlyInAnyOrder("alone:1", "alone:2", "alone:3");
    }

    private static List<Effect> launches(ClusterImage image) {
        return image.runningJobs().stream()
                .map(j -> (Effect) new Effect.LaunchBatch(j.id()))
                .toList();
    }

    /** Node n1 served by {@code node}, with jobs 1-3 running on it. */
    private ClusterImage threeJobsStartedOn(NodeControlGrpc.NodeControlImplBase node) throws Exception {
        server = NettyServerBuilder.forPort(0).addService(node).build().start();
        ClusterFixture cluster =
                ClusterFixture.aCluster().nodes(1).cpus(4).at(NOW - 100, NOW).build();
        cluster.replay(new StateRecord.NodeRegistered(
                "n1",
                new NodeEndpoint("n1", "127.0.0.1", server.getPort()),
                new NodeEquipment(NodeHardware.ofCpus(4, 1000), List.of(), ""),
                new DaemonReport(1, "v", NodeFacts.NONE),
                false,
                NOW - 50));
        for (int i = 0; i < 3; i++) {
            cluster.submit(Builders.aJob().build(), "p", 60, NOW - 10);
        }
        Scheduler.SelectDefaults select = Scheduler.SelectDefaults.DEFAULT;
        SchedulePlan plan = new Scheduler(SchedulerConfig.builder(select).build())
                .schedule(cluster.state().image(), NOW);
        cluster.start(plan, NOW);
        ClusterImage image = cluster.state().image();
        assertThat(image.runningJobs()).hasSize(3);
        CtldConfig config = ConfigText.ctldConfig(
                dir,
                "ClusterName=c\nSlurmctldHost=h\nStateSaveLocation=" + dir + "\nNodeName=n1 CPUs=4\n"
                        + "PartitionName=p Nodes=n1\n");
        DaemonAuth auth = DaemonAuth.forThisProcess(
                ClusterKeys.of(new ClusterKeys.Key("k", new byte[32])), "h", List.of(), Clock.systemUTC());
        dispatcher = new NodeDispatcher(config, auth, new LoopInbox(image));
        return image;
    }
}
