package dev.sluice.noded.server;

import dev.sluice.protocol.v1.NodeStateRequest;
import dev.sluice.protocol.v1.SlurmctldApiGrpc;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scale-in without killing work: asks the controller to DRAIN this node (no new jobs; running
 * ones go on), then waits until no batch job or step runs here. The daemon exits after that,
 * so an autoscaler or a rolling upgrade that waits for the exit never ends a job. The drain
 * request is repeated until the controller accepts it (it may be restarting itself).
 */
final class DrainAndExit {
    private static final Logger log = LoggerFactory.getLogger(DrainAndExit.class);
    // The commands' gRPC API takes a cluster credential (audience slurmctld) in this header.
    private static final Metadata.Key<String> CREDENTIAL =
            Metadata.Key.of("sluice-credential", Metadata.ASCII_STRING_MARSHALLER);

    private final String node;
    private final java.util.function.Supplier<String> credential;
    private final ManagedChannel controller;
    private final BooleanSupplier idle;
    private final long pollMillis;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon(true).name("noded-drain").factory());

    /**
     * @param credential a fresh cluster credential of this daemon's account for the controller
     * @param idle true when nothing runs here (no batch job, no step)
     * @param pollMillis how often to retry the drain and look at running work
     */
    DrainAndExit(
            String node,
            java.util.function.Supplier<String> credential,
            ManagedChannel controller,
            BooleanSupplier idle,
            long pollMillis) {
        this.node = node;
        this.credential = credential;
        this.controller = controller;
        this.idle = idle;
        this.pollMillis = pollMillis;
    }

    /** Starts; the future completes once the node is drained and idle. */
    CompletableFuture<Void> start(String reason) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        timer.execute(() -> requestDrain(reason, done));
        return done.whenComplete((v, e) -> timer.shutdownNow());
    }

    private void requestDrain(String reason, CompletableFuture<Void> done) {
        Metadata asRoot = new Metadata();
        // The node daemon acts as its own account (root or SlurmUser) on its node's behalf, as
        // slurmd does, proving it with the cluster key.
        asRoot.put(CREDENTIAL, credential.get());
        try {
            SlurmctldApiGrpc.newBlockingStub(controller)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(asRoot))
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .updateNode(UpdateNodeRequest.newBuilder()
                            .setNodeNames(node)
                            .setState(NodeStateRequest.NODE_STATE_REQUEST_DRAIN)
                            .setReason(reason)
                            .build());
        } catch (StatusRuntimeException e) {
            log.warn("drain-and-exit: the controller did not take the drain yet ({}); retrying", e.getStatus());
            timer.schedule(() -> requestDrain(reason, done), pollMillis, TimeUnit.MILLISECONDS);
            return;
        }
        log.info("drain-and-exit: node {} drained (\"{}\"); waiting for its jobs to end", node, reason);
        timer.execute(() -> awaitIdle(done));
    }

    private void awaitIdle(CompletableFuture<Void> done) {
        if (idle.getAsBoolean()) {
            log.info("drain-and-exit: no jobs left on {}", node);
            done.complete(null);
        } else {
            timer.schedule(() -> awaitIdle(done), pollMillis, TimeUnit.MILLISECONDS);
        }
    }
}
