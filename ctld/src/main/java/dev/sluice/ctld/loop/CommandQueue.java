package dev.sluice.ctld.loop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The commands waiting for the controller loop, taken a batch at a time. A group queued with
 * {@link #addAll} is never split between batches (up to the batch's size): the loop may take
 * the group's first command alone while the rest are still being queued, but its drain waits
 * for them under the same lock.
 */
final class CommandQueue {
    /** A command, the future its caller waits on, and whether the answer waits for the pass. */
    record Pending<T>(Command<T> command, CompletableFuture<T> future, boolean afterPass) {
        static <T> Pending<T> of(Command<T> command, boolean afterPass) {
            return new Pending<>(command, new CompletableFuture<>(), afterPass);
        }
    }

    private final BlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
    private final Object grouping = new Object();

    void add(Pending<?> p) {
        queue.add(p);
    }

    void addAll(List<? extends Pending<?>> group) {
        synchronized (grouping) {
            queue.addAll(group);
        }
    }

    /** Up to {@code max} commands in order; empty when none came within {@code waitMillis}. */
    List<Pending<?>> take(int max, long waitMillis) throws InterruptedException {
        List<Pending<?>> batch = new ArrayList<>();
        Pending<?> first = queue.poll(waitMillis, TimeUnit.MILLISECONDS);
        if (first != null) {
            batch.add(first);
            synchronized (grouping) {
                queue.drainTo(batch, max - 1);
            }
        }
        return batch;
    }

    /** Everything still queued (the loop is stopping and refuses it). */
    List<Pending<?>> remaining() {
        List<Pending<?>> left = new ArrayList<>();
        queue.drainTo(left);
        return left;
    }
}
