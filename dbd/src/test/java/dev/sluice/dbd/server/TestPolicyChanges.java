package dev.sluice.dbd.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The wake-up of held policy asks: no change is missed, and shutting down answers them. */
class TestPolicyChanges {
    private static final Duration LONG = Duration.ofMinutes(5);

    /** A controller's ask held by dbd, on a thread of its own. */
    private static CompletableFuture<Boolean> heldAsk(PolicyChanges changes, long seen) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return changes.awaitChange(seen, LONG);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aChangeBetweenTheTicketAndTheWaitIsNotMissed() throws Exception {
        PolicyChanges changes = new PolicyChanges();
        long seen = changes.ticket();
        changes.changed(); // committed after the ask read the database, before it waits
        assertThat(changes.awaitChange(seen, LONG)).isTrue();
    }

    @Test
    void aHeldAskWakesWhenAChangeCommits() throws Exception {
        PolicyChanges changes = new PolicyChanges();
        long seen = changes.ticket();
        CompletableFuture<Boolean> held = heldAsk(changes, seen);
        changes.changed();
        assertThat(held.get(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void nothingChangedWithinTheWaitIsFalse() throws Exception {
        PolicyChanges changes = new PolicyChanges();
        assertThat(changes.awaitChange(changes.ticket(), Duration.ofMillis(20))).isFalse();
    }

    @Test
    void closingAnswersHeldAsks() throws Exception {
        PolicyChanges changes = new PolicyChanges();
        long seen = changes.ticket();
        CompletableFuture<Boolean> held = heldAsk(changes, seen);
        changes.close();
        assertThat(held.get(30, TimeUnit.SECONDS)).isFalse();
        assertThat(changes.closed()).isTrue();
    }
}
