package dev.sluice.restd.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.restd.controller.ControllerSession;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tokens that got the shared view share one controller ask; private views are never shared. */
class TestJobListings {
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final MutableClock clock = new MutableClock();
    private final JobListings listings = new JobListings(executor, clock);
    /** The token of each ask the controller got, in order. */
    private final ConcurrentLinkedQueue<String> asked = new ConcurrentLinkedQueue<>();

    private volatile long version = 7;

    @AfterEach
    void close() {
        executor.close();
    }

    private ControllerSession as(String token) {
        return request -> {
            asked.add(token);
            long v = version;
            // As the controller: "unchanged" to an ask that holds the current shared version.
            boolean unchanged = v != 0 && request.getGetJobs().getKnownVersion() == v;
            return ClientResponse.newBuilder()
                    .setGetJobs(GetJobsResponse.newBuilder()
                            .setVersion(v)
                            .setUpdateTime(1)
                            .setUnchanged(unchanged))
                    .build();
        };
    }

    @Test
    void provenTokensArrivingDuringAnAskShareTheOneStartedAfterIt() throws Exception {
        for (String t : List.of("A", "B", "C")) {
            listings.all(t, as(t));
            assertThat(listings.shares(t)).isTrue();
        }
        assertThat(asked).containsExactly("A", "B", "C");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ControllerSession slowA = request -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return as("A").call(request);
        };
        Thread first = Thread.ofPlatform().start(() -> quietly("A", slowA));
        started.await();
        List<Thread> later = new ArrayList<>();
        for (String t : List.of("B", "C")) {
            later.add(Thread.ofPlatform().start(() -> quietly(t, as(t))));
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> later.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
        release.countDown();
        first.join();
        for (Thread t : later) {
            t.join();
        }
        // A's ask, then one for B and C together, made with the token of whichever came first.
        assertThat(asked).hasSize(5);
        assertThat(asked.stream().skip(3).toList())
                .containsExactly("A", asked.stream().skip(4).findFirst().get());
        assertThat(asked.stream().skip(4).findFirst().get()).isIn("B", "C");
    }

    @Test
    void aPrivateViewProvesNothingAndASharedAskThatComesBackPrivateIsThrownAway() throws Exception {
        version = 0; // PrivateData=jobs: every user's view is its own
        assertThat(listings.all("D", as("D")).version()).isZero();
        assertThat(listings.shares("D")).isFalse();

        version = 7;
        listings.all("A", as("A"));
        listings.all("B", as("B"));
        assertThat(listings.shares("A")).isTrue();
        asked.clear();
        version = 0; // the controller was reconfigured with PrivateData=jobs
        assertThat(listings.all("A", as("A")).version()).isZero();
        // The shared ask came back private, so A asked again for itself; no token is proven now.
        assertThat(asked).containsExactly("A", "A");
        assertThat(listings.shares("A")).isFalse();
        assertThat(listings.shares("B")).isFalse();
    }

    @Test
    void aProofRunsOutAndTheTokenAsksForItselfAgain() throws Exception {
        listings.all("A", as("A"));
        assertThat(listings.shares("A")).isTrue();
        clock.advance(JobListings.PROVEN.plusSeconds(1));
        assertThat(listings.shares("A")).isFalse();
        listings.all("A", as("A"));
        assertThat(listings.shares("A")).isTrue();
    }

    @Test
    void aSharedAskRenewsTheProofOfTheTokenItWasMadeWith() throws Exception {
        listings.all("A", as("A"));
        listings.all("B", as("B"));
        clock.advance(JobListings.PROVEN.minusMinutes(1));
        asked.clear();
        listings.all("A", as("A")); // a shared ask, made with A's token: the controller checked it
        assertThat(asked).containsExactly("A");
        clock.advance(Duration.ofMinutes(2));
        assertThat(listings.shares("A")).isTrue();
        assertThat(listings.shares("B")).isFalse();
    }

    private void quietly(String token, ControllerSession session) {
        try {
            listings.all(token, session);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class MutableClock extends Clock {
        private volatile Instant now = Instant.parse("2026-12-06T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
