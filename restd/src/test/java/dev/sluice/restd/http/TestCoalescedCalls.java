package dev.sluice.restd.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Pollers sharing controller asks: one at a time per key, each answer asked after its request. */
class TestCoalescedCalls {
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final CoalescedCalls<String, Integer> calls = new CoalescedCalls<>(executor);
    private final AtomicInteger made = new AtomicInteger();

    @AfterEach
    void close() {
        executor.close();
    }

    @Test
    void aLoneRequestGetsItsOwnCallAndLeavesNothingBehind() throws Exception {
        assertThat(calls.get("t", made::incrementAndGet)).isEqualTo(1);
        assertThat(calls.get("t", made::incrementAndGet)).isEqualTo(2);
        assertThat(calls.keys()).isZero();
    }

    @Test
    void requestsArrivingDuringACallShareTheOneCallStartedAfterIt() throws Exception {
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        ConcurrentLinkedQueue<Integer> answers = new ConcurrentLinkedQueue<>();
        Thread first = Thread.ofPlatform()
                .start(() -> answers.add(getQuietly(() -> {
                    firstStarted.countDown();
                    releaseFirst.await();
                    return made.incrementAndGet();
                })));
        firstStarted.await();
        List<Thread> later = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            later.add(Thread.ofPlatform().start(() -> answers.add(getQuietly(made::incrementAndGet))));
        }
        // Every later request is waiting (queued behind the running call) before it ends.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> later.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
        releaseFirst.countDown();
        first.join();
        for (Thread t : later) {
            t.join();
        }
        // Two calls in all: the first request saw the first; the twenty saw the second, which
        // started after they asked (a poll right after a submission sees the job).
        assertThat(made).hasValue(2);
        assertThat(answers).containsOnly(1, 2).filteredOn(a -> a == 2).hasSize(20);
        assertThat(calls.keys()).isZero();
    }

    @Test
    void differentKeysDoNotWaitForEachOther() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread blocked = Thread.ofPlatform()
                .start(() -> getQuietly(() -> {
                    release.await();
                    return 0;
                }));
        await().atMost(Duration.ofSeconds(10)).until(() -> calls.keys() == 1);
        assertThat(calls.get("other", () -> 7)).isEqualTo(7);
        release.countDown();
        blocked.join();
    }

    @Test
    void whatTheCallThrowsReachesEveryRequestSharingIt() {
        assertThatThrownBy(() -> calls.get("t", () -> {
                    throw new IllegalArgumentException("controller refused");
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("controller refused");
        assertThat(calls.keys()).isZero();
    }

    @Test
    void afterShutdownARequestFailsInsteadOfWaiting() {
        executor.close();
        assertThatThrownBy(() -> calls.get("t", () -> 1))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    }

    private Integer getQuietly(CoalescedCalls.Call<Integer> call) {
        try {
            return calls.get("t", call);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void afterAnAnswerTheNextCallWaitsItsSpacingAndRequestsArrivingMeanwhileShareIt() throws Exception {
        CoalescedCalls<String, Integer> spaced = new CoalescedCalls<>(executor, v -> Duration.ofSeconds(1));
        List<Long> starts = java.util.Collections.synchronizedList(new ArrayList<>());
        CoalescedCalls.Call<Integer> call = () -> {
            starts.add(System.nanoTime());
            return made.incrementAndGet();
        };
        assertThat(spaced.get("t", call)).isEqualTo(1);
        ConcurrentLinkedQueue<Integer> answers = new ConcurrentLinkedQueue<>();
        List<Thread> later = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            later.add(Thread.ofPlatform().start(() -> {
                try {
                    answers.add(spaced.get("t", call));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (Thread t : later) {
            t.join();
        }
        // One more call for the ten, started no sooner than a second after the first began.
        assertThat(answers).containsOnly(2).hasSize(10);
        assertThat(starts).hasSize(2);
        assertThat(starts.get(1) - starts.get(0))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(1).toNanos());
        // The slot is kept for the spacing after the second answer too, then let go.
        await().atMost(Duration.ofSeconds(10)).until(() -> spaced.keys() == 0);
    }
}
