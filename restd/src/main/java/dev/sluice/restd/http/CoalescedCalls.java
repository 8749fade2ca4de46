package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * Calls that many requests may share: per key, one call runs at a time, and every request that
 * arrives while it runs waits for the single call that starts right after it. Each request thus
 * gets the answer of a call that started after the request arrived (a client that has just
 * submitted a job sees it), while a thousand pollers of one queue cost the controller one ask
 * at a time instead of a thousand.
 *
 * @param <K> what makes two requests' answers interchangeable (the credential they present)
 */
public final class CoalescedCalls<K, V> {
    /** A call that may throw what the request's handler declares. */
    @FunctionalInterface
    public interface Call<V> {
        V call() throws Exception;
    }

    private final class Slot {
        CompletableFuture<V> running;
        CompletableFuture<V> queued;
        Call<V> queuedCall;
    }

    private final Map<K, Slot> slots = new HashMap<>();
    private final Executor executor;
    private final Function<V, Duration> spacing;

    /** @param executor runs the calls (virtual threads: a waiting call holds no platform thread) */
    public CoalescedCalls(Executor executor) {
        this(executor, v -> Duration.ZERO);
    }

    /**
     * @param spacing how long after a call that answered this the next call for its key may start
     *     (counted from the start of the one that answered); requests arriving meanwhile join the
     *     call that waits, so each still gets an answer asked after it arrived
     */
    public CoalescedCalls(Executor executor, Function<V, Duration> spacing) {
        this.executor = requireNonNull(executor, "executor is null");
        this.spacing = requireNonNull(spacing, "spacing is null");
    }

    /**
     * The answer of {@code call}, or of a call for the same key that started after this one was
     * asked for; what the call threw is thrown here.
     */
    public V get(K key, Call<V> call) throws Exception {
        CompletableFuture<V> mine;
        boolean start = false;
        synchronized (slots) {
            Slot slot = slots.computeIfAbsent(key, k -> new Slot());
            if (slot.running == null) {
                slot.running = mine = new CompletableFuture<>();
                start = true;
            } else if (slot.queued == null) {
                slot.queued = mine = new CompletableFuture<>();
                slot.queuedCall = call;
            } else {
                mine = slot.queued;
            }
        }
        if (start) {
            launch(key, mine, call);
        }
        try {
            return mine.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Runs one call, then hands the slot to the call queued behind it, if any. */
    private void launch(K key, CompletableFuture<V> future, Call<V> call) {
        try {
            executor.execute(() -> run(key, future, call));
        } catch (RejectedExecutionException e) {
            // Shutting down: this call and any queued behind it fail instead of waiting forever.
            synchronized (slots) {
                Slot slot = slots.remove(key);
                if (slot != null && slot.queued != null) {
                    slot.queued.completeExceptionally(e);
                }
            }
            future.completeExceptionally(e);
        }
    }

    private void run(K key, CompletableFuture<V> future, Call<V> call) {
        long started = System.nanoTime();
        V value = null;
        Throwable failure = null;
        try {
            value = call.call();
        } catch (Throwable t) {
            failure = t;
        }
        long rest = failure != null ? 0 : spacing.apply(value).toNanos() - (System.nanoTime() - started);
        if (rest > 0) {
            // The finished call keeps the slot while the next one waits: requests arriving
            // meanwhile join the waiting call rather than queue behind it.
            if (failure == null) {
                future.complete(value);
            }
            try {
                executor.execute(() -> {
                    java.util.concurrent.locks.LockSupport.parkNanos(rest);
                    handOn(key);
                });
            } catch (RejectedExecutionException e) {
                handOn(key); // shutting down: whatever waits fails in launch
            }
            return;
        }
        // The slot is handed on before the waiters wake: a request they make next finds it
        // free or taken by the call queued behind, never this finished one.
        handOn(key);
        if (failure == null) {
            future.complete(value);
        } else {
            future.completeExceptionally(failure);
        }
    }

    /** Starts the call queued behind the finished one, if any; else frees the slot. */
    private void handOn(K key) {
        CompletableFuture<V> next;
        Call<V> nextCall;
        synchronized (slots) {
            Slot slot = slots.get(key);
            next = slot.queued;
            nextCall = slot.queuedCall;
            slot.running = next;
            slot.queued = null;
            slot.queuedCall = null;
            if (next == null) {
                slots.remove(key);
            }
        }
        if (next != null) {
            launch(key, next, nextCall);
        }
    }

    /** Keys with a call running or waiting (tests: idle keys are not kept). */
    int keys() {
        synchronized (slots) {
            return slots.size();
        }
    }
}
