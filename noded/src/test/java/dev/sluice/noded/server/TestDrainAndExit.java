package dev.sluice.noded.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.protocol.v1.NodeStateRequest;
import dev.sluice.protocol.v1.SlurmctldApiGrpc;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import dev.sluice.protocol.v1.UpdateNodeResponse;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestDrainAndExit {
    private final List<UpdateNodeRequest> updates = new CopyOnWriteArrayList<>();
    private final List<String> callers = new CopyOnWriteArrayList<>();
    private final AtomicInteger refusals = new AtomicInteger();
    private Server server;
    private ManagedChannel channel;

    /** A controller that is unavailable for its first {@code unavailable} drain requests. */
    private void controller(int unavailable) throws Exception {
        String name = InProcessServerBuilder.generateName();
        var api = new SlurmctldApiGrpc.SlurmctldApiImplBase() {
            @Override
            public void updateNode(UpdateNodeRequest request, StreamObserver<UpdateNodeResponse> observer) {
                if (refusals.getAndIncrement() < unavailable) {
                    observer.onError(Status.UNAVAILABLE.asRuntimeException());
                    return;
                }
                updates.add(request);
                observer.onNext(UpdateNodeResponse.getDefaultInstance());
                observer.onCompleted();
            }
        };
        server = InProcessServerBuilder.forName(name)
                .addService(ServerInterceptors.intercept(api, new io.grpc.ServerInterceptor() {
                    @Override
                    public <Q, R> io.grpc.ServerCall.Listener<Q> interceptCall(
                            io.grpc.ServerCall<Q, R> call, Metadata headers, io.grpc.ServerCallHandler<Q, R> next) {
                        callers.add(
                                headers.get(Metadata.Key.of("sluice-credential", Metadata.ASCII_STRING_MARSHALLER)));
                        return next.startCall(call, headers);
                    }
                }))
                .build()
                .start();
        channel = InProcessChannelBuilder.forName(name).build();
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void drainsAsRootThenFinishesOnlyOnceTheLastJobHasEnded() throws Exception {
        controller(0);
        AtomicBoolean idle = new AtomicBoolean(false);
        CompletableFuture<Void> done =
                new DrainAndExit("gpu07", () -> "root-credential", channel, idle::get, 20).start("scale-in");

        await().atMost(Duration.ofSeconds(10)).until(() -> !updates.isEmpty());
        assertThat(updates.get(0).getNodeNames()).isEqualTo("gpu07");
        assertThat(updates.get(0).getState()).isEqualTo(NodeStateRequest.NODE_STATE_REQUEST_DRAIN);
        assertThat(updates.get(0).getReason()).isEqualTo("scale-in");
        assertThat(callers).as("a fresh cluster credential").containsOnly("root-credential");
        assertThat(done).isNotDone();

        idle.set(true);
        await().atMost(Duration.ofSeconds(10)).until(done::isDone);
        assertThat(updates).hasSize(1);
    }

    @Test
    void keepsAskingWhileTheControllerIsAway() throws Exception {
        controller(3);
        CompletableFuture<Void> done =
                new DrainAndExit("gpu07", () -> "root-credential", channel, () -> true, 20).start("upgrade");

        await().atMost(Duration.ofSeconds(10)).until(done::isDone);
        assertThat(refusals.get()).isEqualTo(4);
        assertThat(updates).extracting(UpdateNodeRequest::getReason).containsExactly("upgrade");
    }
}
