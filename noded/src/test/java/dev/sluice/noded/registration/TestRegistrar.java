package dev.sluice.noded.registration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.noded.job.JobEnd;
import dev.sluice.noded.launch.BatchLauncher;
import dev.sluice.noded.launch.LaunchSetup;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.v1.HeartbeatRequest;
import dev.sluice.protocol.v1.HeartbeatResponse;
import dev.sluice.protocol.v1.JobCompleteBatch;
import dev.sluice.protocol.v1.JobCompleteBatchResponse;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.JobCompleteResponse;
import dev.sluice.protocol.v1.NodeRegistryGrpc;
import dev.sluice.protocol.v1.RefusedReport;
import dev.sluice.protocol.v1.RegisterNodeRequest;
import dev.sluice.protocol.v1.RegisterNodeResponse;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How job-end reports reach the controller: batched, retried, and without a heartbeat each. */
class TestRegistrar {
    @TempDir
    Path dir;

    private Server server;
    private ManagedChannel channel;
    private Registrar registrar;
    private Outbox outbox;

    /** A controller that records what it is sent; {@code batches} false plays an older one. */
    private static final class FakeController extends NodeRegistryGrpc.NodeRegistryImplBase {
        final boolean batches;
        final List<List<Integer>> batchCalls = new CopyOnWriteArrayList<>();
        final List<Integer> singleCalls = new CopyOnWriteArrayList<>();
        final AtomicInteger heartbeats = new AtomicInteger();
        volatile int refuseOnce = -1;
        /** With {@link #refuseOnce}: the "not yet, again in" hint of an end that waits. */
        volatile int retryAfterMs;

        FakeController(boolean batches) {
            this.batches = batches;
        }

        @Override
        public void register(RegisterNodeRequest request, StreamObserver<RegisterNodeResponse> observer) {
            observer.onNext(RegisterNodeResponse.newBuilder()
                    .setClusterName("c")
                    .setHeartbeatIntervalSeconds(3600)
                    .build());
            observer.onCompleted();
        }

        @Override
        public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> observer) {
            heartbeats.incrementAndGet();
            observer.onNext(HeartbeatResponse.getDefaultInstance());
            observer.onCompleted();
        }

        @Override
        public void jobComplete(JobCompleteRequest request, StreamObserver<JobCompleteResponse> observer) {
            singleCalls.add(request.getJobId());
            observer.onNext(JobCompleteResponse.getDefaultInstance());
            observer.onCompleted();
        }

        @Override
        public void jobsComplete(JobCompleteBatch batch, StreamObserver<JobCompleteBatchResponse> observer) {
            if (!batches) {
                observer.onError(Status.UNIMPLEMENTED.asRuntimeException());
                return;
            }
            batchCalls.add(batch.getReportsList().stream()
                    .map(JobCompleteRequest::getJobId)
                    .toList());
            JobCompleteBatchResponse.Builder answer = JobCompleteBatchResponse.newBuilder();
            int refuse = refuseOnce;
            if (batch.getReportsList().stream().anyMatch(r -> r.getJobId() == refuse)) {
                refuseOnce = -1;
                answer.addRefused(RefusedReport.newBuilder()
                        .setJobId(refuse)
                        .setMessage("busy")
                        .setRetryAfterMs(retryAfterMs));
            }
            observer.onNext(answer.build());
            observer.onCompleted();
        }
    }

    private JobSpool startWith(FakeController controller, JobCompleteRequest... waiting) throws Exception {
        return startWith(controller, Duration.ZERO, waiting);
    }

    private JobSpool startWith(FakeController controller, Duration reportInterval, JobCompleteRequest... waiting)
            throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .directExecutor()
                .addService(controller)
                .build()
                .start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        for (JobCompleteRequest r : waiting) {
            spool.saveReport(r);
        }
        outbox = new Outbox(spool);
        BatchLauncher launcher = new BatchLauncher(
                LaunchSetup.builder()
                        .nodeName("n1")
                        .spool(spool)
                        .daemonUid(0)
                        .clock(InstantSource.fixed(Instant.ofEpochSecond(1_000_000)))
                        .build(),
                outbox,
                (job, signal) -> {});
        ClientInterceptor none = new ClientInterceptor() {
            @Override
            public <Q, R> io.grpc.ClientCall<Q, R> interceptCall(
                    io.grpc.MethodDescriptor<Q, R> method, io.grpc.CallOptions options, io.grpc.Channel next) {
                return next.newCall(method, options);
            }
        };
        registrar = new Registrar(
                channel,
                none,
                "n1",
                () -> RegisterNodeRequest.newBuilder().setName("n1").build(),
                launcher,
                outbox,
                reportInterval);
        registrar.start();
        return spool;
    }

    private static JobCompleteRequest report(int jobId) {
        return JobCompleteRequest.newBuilder().setNodeName("n1").setJobId(jobId).build();
    }

    /** The end the launcher posts that the controller hears as {@link #report}. */
    private static JobEnd end(int jobId) {
        return new JobEnd("n1", jobId, 0, 0, false, false, java.util.Optional.empty());
    }

    @AfterEach
    void stop() {
        if (registrar != null) {
            registrar.close();
        }
        if (server != null) {
            server.shutdownNow();
        }
    }

    @Test
    void waitingReportsGoInOneCallWithoutAHeartbeatEach() throws Exception {
        FakeController controller = new FakeController(true);
        JobSpool spool = startWith(controller, report(11), report(12), report(13));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> spool.pendingReports().isEmpty());
        assertThat(controller.batchCalls).containsExactly(List.of(11, 12, 13));
        for (int id = 14; id < 20; id++) {
            outbox.post(end(id));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> spool.pendingReports().isEmpty());
        }
        assertThat(controller.batchCalls.stream().flatMap(List::stream))
                .containsExactly(11, 12, 13, 14, 15, 16, 17, 18, 19);
        // The interval (an hour here) decides heartbeats, not the reports.
        assertThat(controller.heartbeats.get()).isZero();
        assertThat(controller.singleCalls).isEmpty();
    }

    @Test
    void aRefusedReportStaysAndIsSentAgain() throws Exception {
        FakeController controller = new FakeController(true);
        controller.refuseOnce = 22;
        JobSpool spool = startWith(controller, report(21), report(22), report(23));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> spool.pendingReports().equals(List.of(report(22))));
        // Posted again (as the launcher would not): only to have the registrar go round now.
        outbox.post(end(22));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> spool.pendingReports().isEmpty());
        assertThat(controller.batchCalls).containsExactly(List.of(21, 22, 23), List.of(22));
    }

    @Test
    void anOlderControllerGetsReportsOneAtATime() throws Exception {
        FakeController controller = new FakeController(false);
        JobSpool spool = startWith(controller, report(31), report(32));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> spool.pendingReports().isEmpty());
        assertThat(controller.singleCalls).containsExactly(31, 32);
        assertThat(controller.batchCalls).isEmpty();
    }

    @Test
    void anEndTheControllerTakesLaterIsSentAgainSoonWithoutANewPost() throws Exception {
        // An end that waits for another node's Prolog: the controller asks for it again in 50 ms.
        // With an hour between heartbeats, only that hint sends it again.
        FakeController controller = new FakeController(true);
        controller.refuseOnce = 42;
        controller.retryAfterMs = 50;
        JobSpool spool = startWith(controller, report(41), report(42));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> spool.pendingReports().isEmpty());
        assertThat(controller.batchCalls).containsExactly(List.of(41, 42), List.of(42));
    }

    @Test
    void endsThatFollowADeliveryWithinTheIntervalGoTogetherAtItsClose() throws Exception {
        FakeController controller = new FakeController(true);
        JobSpool spool = startWith(controller, Duration.ofMillis(500));
        // After a quiet spell: at once, alone.
        outbox.post(end(51));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> spool.pendingReports().isEmpty());
        // Within the interval after that delivery: held until it closes, then in one call.
        outbox.post(end(52));
        outbox.post(end(53));
        outbox.post(end(54));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> spool.pendingReports().isEmpty());
        assertThat(controller.batchCalls).containsExactly(List.of(51), List.of(52, 53, 54));
    }
}
