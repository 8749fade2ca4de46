package dev.sluice.protocol.auth;

import java.time.Instant;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The nonces of credentials already accepted, each kept until its credential expires: a
 * credential seen twice is a replay. After expiry the time check refuses it anyway, so the
 * memory is bounded by the traffic of one credential lifetime.
 *
 * <p>Expired nonces are dropped from the front of a queue in the order they were accepted.
 * Credentials are issued with one lifetime and presented soon after, so that order is their
 * expiry order but for clock skew and transit: the sweep stops at the first nonce still valid,
 * and one whose neighbours ahead expire later waits for them, at most a skew longer. Walking
 * the whole map instead cost a controller that accepts thousands of calls a second a tenth of
 * its CPU (the map holds every call of the last five minutes).
 */
public final class NonceCache {
    private record Entry(String nonce, Instant expires) {}

    private final Map<String, Instant> seen = new ConcurrentHashMap<>();
    private final Queue<Entry> order = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sweeping = new AtomicBoolean();

    /** True the first time {@code nonce} is offered; false for a replay. */
    public boolean firstUse(String nonce, Instant expires, Instant now) {
        sweep(now);
        if (seen.putIfAbsent(nonce, expires) != null) {
            return false;
        }
        order.add(new Entry(nonce, expires));
        return true;
    }

    // One sweeper at a time; a caller that finds another sweeping leaves the work to it.
    private void sweep(Instant now) {
        Entry head = order.peek();
        if (head == null || head.expires().isAfter(now) || !sweeping.compareAndSet(false, true)) {
            return;
        }
        try {
            while ((head = order.peek()) != null && !head.expires().isAfter(now)) {
                order.poll();
                seen.remove(head.nonce(), head.expires());
            }
        } finally {
            sweeping.set(false);
        }
    }

    int size() {
        return seen.size();
    }
}
