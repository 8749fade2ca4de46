package dev.sluice.dbd.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.dbd.model.RpcStatistics;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The daemon's one {@link RpcStatistics}, counted into by every connection's thread and the
 * rollup timer: each count swaps in a new value, so none is lost and a reader sees whole
 * requests only.
 */
final class Statistics {
    private final InstantSource clock;
    private final AtomicReference<RpcStatistics> current;

    Statistics(InstantSource clock) {
        this.clock = requireNonNull(clock, "clock is null");
        this.current = new AtomicReference<>(RpcStatistics.since(clock.instant().getEpochSecond()));
    }

    void count(RpcStatistics.Key type, RpcStatistics.Key user, long micros) {
        current.updateAndGet(s -> s.count(type, user, micros));
    }

    void rolledUp(long micros) {
        long now = clock.instant().getEpochSecond();
        current.updateAndGet(s -> s.rolledUp(now, micros));
    }

    /** {@code sacctmgr clear stats}: everything, the rollup's cycles too, from now. */
    void clear() {
        current.set(RpcStatistics.since(clock.instant().getEpochSecond()));
    }

    RpcStatistics read() {
        return current.get();
    }

    long now() {
        return clock.instant().getEpochSecond();
    }
}
