package dev.sluice.ctld.loop;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.loop.CommandQueue.Pending;
import dev.sluice.ctld.state.ClusterImage;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The controller loop's front: where commands wait for it and where it publishes its latest
 * image. Made before the loop, so that what the loop hands its effects and timings to (the node
 * dispatcher, metrics) can be given it at construction and queue commands or read images
 * without holding the loop: the loop's cycles are broken by this queue.
 *
 * <p>Concurrency: any thread may queue and read; only the loop publishes.
 */
public final class LoopInbox {
    private final CommandQueue queue = new CommandQueue();
    private volatile ClusterImage image;
    private volatile boolean open = true;

    /** @param initial the image of the state the loop starts from */
    public LoopInbox(ClusterImage initial) {
        this.image = requireNonNull(initial, "initial is null");
    }

    /** The latest published image. Never blocks. */
    public ClusterImage image() {
        return image;
    }

    /** Queues a command; the future completes once its records are durable. */
    public <T> CompletableFuture<T> submit(Command<T> command) {
        return enqueue(Pending.of(command, false));
    }

    /**
     * Queues a command whose caller hears back after the scheduling pass that follows it: an
     * allocation (salloc, srun) learns in its answer whether it started, as Slurm's allocate RPC
     * tries the job at once, instead of saying it is queued and polling.
     */
    public <T> CompletableFuture<T> submitThenSchedule(Command<T> command) {
        return enqueue(Pending.of(command, true));
    }

    /**
     * Queues commands as one group: the loop takes them into the same batch (so one sync makes
     * them all durable, and one scheduling pass follows), deciding each in turn with the ones
     * before it applied. Each future completes, or fails with its own refusal, as
     * {@link #submit}'s does.
     */
    public <T> List<CompletableFuture<T>> submitAll(List<? extends Command<T>> commands) {
        List<Pending<T>> group =
                commands.stream().map(c -> Pending.of(c, false)).toList();
        if (open) {
            queue.addAll(group);
        } else {
            group.forEach(this::enqueue);
        }
        return group.stream().map(Pending::future).toList();
    }

    private <T> CompletableFuture<T> enqueue(Pending<T> p) {
        if (!open) {
            p.future().completeExceptionally(new SlurmException(ErrorCode.UNEXPECTED, "controller is shutting down"));
            return p.future();
        }
        queue.add(p);
        return p.future();
    }

    /** Loop only: a new image for readers. */
    void publish(ClusterImage published) {
        image = published;
    }

    /** Whether commands are still taken (the loop runs while they are). */
    boolean open() {
        return open;
    }

    /** Loop only: commands are refused from now on. */
    void shut() {
        open = false;
    }

    CommandQueue queue() {
        return queue;
    }
}
