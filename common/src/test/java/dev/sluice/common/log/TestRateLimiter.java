package dev.sluice.common.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

class TestRateLimiter {
    /** A clock the test moves. */
    private static final class Clock implements InstantSource {
        Instant now = Instant.parse("2026-12-02T04:00:00Z");

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    private final Clock clock = new Clock();
    private final RateLimiter limiter = new RateLimiter(clock, Duration.ofSeconds(60), 3);

    @Test
    void oneOccurrencePerKeyPerWindowGetsThroughAndTellsWhatWasKeptQuiet() {
        assertThat(limiter.admit("10.0.0.1|junk")).isZero();
        for (int i = 0; i < 999; i++) {
            assertThat(limiter.admit("10.0.0.1|junk")).isEqualTo(RateLimiter.QUIET);
        }
        clock.advance(Duration.ofSeconds(59));
        assertThat(limiter.admit("10.0.0.1|junk")).isEqualTo(RateLimiter.QUIET);
        clock.advance(Duration.ofSeconds(1));
        assertThat(limiter.admit("10.0.0.1|junk")).isEqualTo(1000);
        assertThat(limiter.admit("10.0.0.1|junk")).isEqualTo(RateLimiter.QUIET);
        clock.advance(Duration.ofMinutes(5));
        assertThat(limiter.admit("10.0.0.1|junk")).isEqualTo(1);
    }

    @Test
    void keysHaveWindowsOfTheirOwn() {
        assertThat(limiter.admit("a")).isZero();
        assertThat(limiter.admit("b")).isZero();
        assertThat(limiter.admit("a")).isEqualTo(RateLimiter.QUIET);
        assertThat(limiter.admit("b")).isEqualTo(RateLimiter.QUIET);
    }

    @Test
    void everNewKeysShareOneWindowOnceTheTableIsFull() {
        assertThat(limiter.admit("a")).isZero();
        assertThat(limiter.admit("b")).isZero();
        assertThat(limiter.admit("c")).isZero();
        // The table is full of live windows: newcomers fall under one shared key.
        assertThat(limiter.admit("d")).isZero();
        for (int i = 0; i < 100; i++) {
            assertThat(limiter.admit("peer" + i)).isEqualTo(RateLimiter.QUIET);
        }
        assertThat(limiter.size()).isEqualTo(3);
        clock.advance(Duration.ofSeconds(60));
        // Closed windows that kept nothing quiet make room; the shared one keeps its count...
        assertThat(limiter.admit("e")).isZero();
        assertThat(limiter.admit("f")).isZero();
        // ...and reports it the next time the table overflows.
        assertThat(limiter.admit("g")).isEqualTo(100);
        assertThat(limiter.size()).isEqualTo(3);
    }

    @Test
    void closedWindowsMakeRoomForNewKeys() {
        limiter.admit("a");
        limiter.admit("b");
        limiter.admit("c");
        clock.advance(Duration.ofSeconds(61));
        assertThat(limiter.admit("d")).isZero();
        assertThat(limiter.admit("e")).isZero();
        assertThat(limiter.admit("f")).isZero();
        assertThat(limiter.size()).isEqualTo(3);
    }
}
