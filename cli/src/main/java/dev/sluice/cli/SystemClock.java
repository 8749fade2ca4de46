package dev.sluice.cli;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The system clock in the system's zone, resolving the zone on first use only: loading the
 * time-zone rules takes tens of milliseconds, a visible share of a command that never prints a
 * date ({@code squeue}'s default listing, {@code sbatch}). Thread-safe.
 */
final class SystemClock extends Clock {
    private volatile ZoneId zone;

    @Override
    public ZoneId getZone() {
        ZoneId z = zone;
        if (z == null) {
            z = ZoneId.systemDefault();
            zone = z;
        }
        return z;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
        return Clock.system(newZone);
    }

    @Override
    public Instant instant() {
        return Instant.now();
    }

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }
}
