package dev.sluice.common.auth;

import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Remembers the nonces of credentials until they expire, so each credential authorises one
 * request only: one lifted off the wire and sent again is refused. Memory is bounded by the
 * rate of requests times the credential lifetime; expired nonces are dropped as new ones come.
 */
public final class ReplayGuard {
    private final Map<String, Instant> seen = new HashMap<>();
    private Instant nextSweep = Instant.MIN;

    /** Records {@code nonce}; false when it was already used by an unexpired credential. */
    public synchronized boolean firstUse(String nonce, Instant expires, Instant now) {
        if (!now.isBefore(nextSweep)) {
            sweep(now);
            nextSweep = now.plusSeconds(10);
        }
        Instant previous = seen.get(nonce);
        if (previous != null && previous.isAfter(now)) {
            return false;
        }
        seen.put(nonce, expires);
        return true;
    }

    private void sweep(Instant now) {
        for (Iterator<Instant> it = seen.values().iterator(); it.hasNext(); ) {
            if (!it.next().isAfter(now)) {
                it.remove();
            }
        }
    }

    synchronized int size() {
        return seen.size();
    }
}
