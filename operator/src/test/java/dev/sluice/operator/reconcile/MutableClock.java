package dev.sluice.operator.reconcile;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/** A clock reading epoch seconds from the test ({@link FakeCluster#now}). */
final class MutableClock extends Clock {
    private final LongSupplier seconds;

    MutableClock(LongSupplier seconds) {
        this.seconds = seconds;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochSecond(seconds.getAsLong());
    }
}
