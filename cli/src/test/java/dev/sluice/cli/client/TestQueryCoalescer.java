package dev.sluice.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TestQueryCoalescer {
    // Callers block on the controller: one thread each, as sluice-agent's virtual threads.
    private static final Executor CALLERS = Executors.newVirtualThreadPerTaskExecutor();

    private static ClientRequest squeue(int uid, long requestId) {
        return ClientRequest.newBuilder()
                .setRequestId(requestId)
                .setIdentity(Identity.newBuilder().setUid(uid).setUserName("u" + uid))
                .setGetJobs(GetJobsRequest.getDefaultInstance())
                .build();
    }

    private static ClientResponse answer(long n) {
        return ClientResponse.newBuilder().setRequestId(n).build();
    }

    /** A controller that holds each request until released and numbers them. */
    private static final class SlowController {
        final AtomicInteger sent = new AtomicInteger();
        volatile CountDownLatch release = new CountDownLatch(1);

        ClientResponse call() {
            int n = sent.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return answer(n);
        }
    }

    @Test
    void callersArrivingWhileARequestIsInTheAirShareTheNextOneNotThatOne() throws Exception {
        QueryCoalescer coalescer = QueryCoalescer.sharing();
        SlowController controller = new SlowController();
        CompletableFuture<ClientResponse> first =
                CompletableFuture.supplyAsync(() -> ask(coalescer, squeue(1000, 1), controller), CALLERS);
        await().until(() -> controller.sent.get() == 1);

        List<CompletableFuture<ClientResponse>> later = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long id = 2 + i;
            later.add(CompletableFuture.supplyAsync(() -> ask(coalescer, squeue(1000, id), controller), CALLERS));
        }
        await().until(() -> coalescer.gathered(squeue(1000, 99)) == 20);
        // Nothing is sent for them while the first is in the air.
        assertThat(controller.sent.get()).isEqualTo(1);

        controller.release.countDown();
        assertThat(first.get().getRequestId()).isEqualTo(1);
        for (CompletableFuture<ClientResponse> f : later) {
            // Answered by the second request, sent after all of them arrived.
            assertThat(f.get().getRequestId()).isEqualTo(2);
        }
        assertThat(controller.sent.get()).isEqualTo(2);
    }

    @Test
    void differentUsersAndCommandsThatChangeThingsAreNeverShared() throws Exception {
        QueryCoalescer coalescer = QueryCoalescer.sharing();
        SlowController controller = new SlowController();
        CompletableFuture<ClientResponse> alice =
                CompletableFuture.supplyAsync(() -> ask(coalescer, squeue(1000, 1), controller), CALLERS);
        CompletableFuture<ClientResponse> bob =
                CompletableFuture.supplyAsync(() -> ask(coalescer, squeue(1001, 1), controller), CALLERS);
        ClientRequest submit = ClientRequest.newBuilder()
                .setIdentity(Identity.newBuilder().setUid(1000))
                .setSubmitBatchJob(SubmitBatchJobRequest.getDefaultInstance())
                .build();
        CompletableFuture<ClientResponse> s1 =
                CompletableFuture.supplyAsync(() -> ask(coalescer, submit, controller), CALLERS);
        CompletableFuture<ClientResponse> s2 =
                CompletableFuture.supplyAsync(() -> ask(coalescer, submit, controller), CALLERS);
        await().until(() -> controller.sent.get() == 4);
        controller.release.countDown();
        assertThat(List.of(alice.get(), bob.get(), s1.get(), s2.get()))
                .extracting(ClientResponse::getRequestId)
                .doesNotHaveDuplicates();
    }

    @Test
    void withoutSharingEveryCallGoesOut() throws Exception {
        SlowController controller = new SlowController();
        controller.release.countDown();
        for (int i = 0; i < 3; i++) {
            ask(QueryCoalescer.NONE, squeue(1000, i), controller);
        }
        assertThat(controller.sent.get()).isEqualTo(3);
    }

    private static ClientResponse ask(QueryCoalescer coalescer, ClientRequest request, SlowController controller) {
        try {
            return coalescer.ask(request, controller::call);
        } catch (ControllerException e) {
            throw new IllegalStateException(e);
        }
    }
}
