package dev.sluice.common.log;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * At most one occurrence per key per window gets through; the others are counted, and the next
 * one that gets through learns how many were kept quiet. A flood of junk connections then costs
 * a log line per peer per window instead of one (or twenty-five) per connection.
 *
 * <p>Memory is bounded: at most {@code maxKeys} keys are remembered. When that many are within
 * their window, further keys share one {@link #OTHERS} key, so even a flood from ever-new
 * addresses writes at most {@code maxKeys + 1} lines per window.
 */
public final class RateLimiter {
    /** The key every key beyond {@code maxKeys} falls under while the table is full. */
    public static final String OTHERS = "(others)";

    /** {@link #admit}'s answer for an occurrence to keep quiet. */
    public static final long QUIET = -1;

    private final InstantSource clock;
    private final Duration window;
    private final int maxKeys;
    private final Map<String, Window> windows = new LinkedHashMap<>();

    private static final class Window {
        Instant opened;
        long suppressed;
    }

    public RateLimiter(InstantSource clock, Duration window, int maxKeys) {
        this.clock = requireNonNull(clock, "clock is null");
        this.window = requireNonNull(window, "window is null");
        if (window.isNegative() || window.isZero() || maxKeys < 1) {
            throw new IllegalArgumentException("a positive window and at least one key");
        }
        this.maxKeys = maxKeys;
    }

    /**
     * One occurrence of {@code key}.
     *
     * @return {@link #QUIET} when it falls in the window of an earlier one; otherwise how many
     *     occurrences were kept quiet since the last one that got through (0 for a first)
     */
    public synchronized long admit(String key) {
        requireNonNull(key, "key is null");
        Instant now = clock.instant();
        Window w = windows.get(key);
        if (w == null) {
            if (windows.size() >= maxKeys) {
                // Closed windows that kept nothing quiet have nothing left to tell...
                dropClosed(now, true);
            }
            if (windows.size() >= maxKeys) {
                // ...then the other closed ones go, their counts with them (the shared one stays).
                dropClosed(now, false);
            }
            if (windows.size() >= maxKeys) {
                // Full of live windows: the newcomer shares the overflow key, for which the key
                // remembered longest makes room.
                if (!windows.containsKey(OTHERS)) {
                    forgetOldest();
                }
                return admit(OTHERS);
            }
            w = new Window();
            w.opened = now;
            windows.put(key, w);
            return 0;
        }
        if (now.isBefore(w.opened.plus(window))) {
            w.suppressed++;
            return QUIET;
        }
        long quiet = w.suppressed;
        w.opened = now;
        w.suppressed = 0;
        return quiet;
    }

    /** Keys remembered now (tests). */
    synchronized int size() {
        return windows.size();
    }

    private void dropClosed(Instant now, boolean keepCounts) {
        for (Iterator<Map.Entry<String, Window>> it = windows.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Window> e = it.next();
            Window w = e.getValue();
            boolean closed = !now.isBefore(w.opened.plus(window));
            boolean keep = keepCounts ? w.suppressed > 0 : e.getKey().equals(OTHERS);
            if (closed && !keep) {
                it.remove();
            }
        }
    }

    /** Makes room for {@link #OTHERS}: the key first remembered goes. */
    private void forgetOldest() {
        Iterator<String> it = windows.keySet().iterator();
        it.next();
        it.remove();
    }
}
