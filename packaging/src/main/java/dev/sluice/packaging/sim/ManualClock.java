package dev.sluice.packaging.sim;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told: the simulator's time, shared by controller and commands. */
public final class ManualClock extends Clock {
    private volatile Instant now;
    private final ZoneId zone;

    public ManualClock(Instant start, ZoneId zone) {
        this.now = start;
        this.zone = zone;
    }

    public ManualClock(Instant start) {
        this(start, ZoneOffset.UTC);
    }

    public void advanceSeconds(long seconds) {
        now = now.plusSeconds(seconds);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
        return new ManualClock(now, newZone);
    }
}
