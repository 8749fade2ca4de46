package dev.sluice.protocol.auth;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The nonces of credentials already accepted, each kept until its credential expires: a
 * credential seen twice is a replay. After expiry the time check refuses it anyway, so the
 * memory is bounded by the traffic of one credential lifetime.
 */
public final class NonceCache {
    private static final int SWEEP_EVERY = 1024;

    private final Map<String, Instant> seen = new ConcurrentHashMap<>();
    private final AtomicInteger sinceSweep = new AtomicInteger();

    /** True the first time {@code nonce} is offered; false for a replay. */
    public boolean firstUse(String nonce, Instant expires, Instant now) {
        if (sinceSweep.incrementAndGet() >= SWEEP_EVERY) {
            sinceSweep.set(0);
            seen.values().removeIf(e -> !e.isAfter(now));
        }
        return seen.putIfAbsent(nonce, expires) == null;
    }

    int size() {
        return seen.size();
    }
}
