package dev.sluice.noded.launch;

import dev.sluice.noded.job.StepLaunch;
import dev.sluice.protocol.v1.TaskInput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * srun's standard input for the tasks of a step on this node that read it ({@code -i}: every
 * task by default, one with {@code -i N}): each such task's standard input is a pipe, written by
 * a thread of its own, so that a task that does not read leaves the others (and srun's signals,
 * read from the same socket) alone until its queue of {@link #QUEUED_CHUNKS} chunks is full.
 * The pipes close when srun's input ends or srun goes away; a task that closed its end is
 * skipped.
 */
final class TaskInputs implements AutoCloseable {
    /** Chunks queued for one task before srun's frames wait for it (a chunk is at most 64 KiB). */
    static final int QUEUED_CHUNKS = 256;

    private static final byte[] END = new byte[0];

    private final List<BlockingQueue<byte[]>> queues = new ArrayList<>();
    // Set before the end is queued: a writer whose queue was full when srun's input ended sees
    // it once it has written what was queued, so no chunk is dropped to make room for the end.
    private volatile boolean ended;

    private TaskInputs() {}

    /** Whether the step's task {@code local} (on this node) reads srun's standard input. */
    static boolean reads(StepLaunch r, int local) {
        return r.srun().stdin().reads(r.tasks().taskIds().get(local));
    }

    /** Writers for the tasks that read srun's input ({@link #reads}), started. */
    static TaskInputs of(StepLaunch r, List<Process> tasks) {
        TaskInputs inputs = new TaskInputs();
        for (int local = 0; local < tasks.size(); local++) {
            if (reads(r, local)) {
                BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(QUEUED_CHUNKS);
                OutputStream pipe = tasks.get(local).getOutputStream();
                Thread.ofVirtual()
                        .name("stdin-" + r.jobId() + "." + r.stepId() + "."
                                + r.tasks().taskIds().get(local))
                        .start(() -> inputs.write(queue, pipe));
                inputs.queues.add(queue);
            }
        }
        return inputs;
    }

    /** A frame of srun's input: its data for every reading task, then its end if it says so. */
    void accept(TaskInput input) throws InterruptedException {
        if (ended) {
            return;
        }
        if (!input.getData().isEmpty()) {
            byte[] data = input.getData().toByteArray();
            for (BlockingQueue<byte[]> q : queues) {
                q.put(data);
            }
        }
        if (input.getEof()) {
            close();
        }
    }

    /** srun's input ended, or srun went away: the tasks read the end of their input. */
    @Override
    public void close() {
        if (ended) {
            return;
        }
        ended = true;
        for (BlockingQueue<byte[]> q : queues) {
            // Never blocks: a full queue's writer ends by itself once it has taken the rest (a
            // task that reads slowly still gets every byte).
            q.offer(END);
        }
    }

    private void write(BlockingQueue<byte[]> queue, OutputStream pipe) {
        boolean open = true;
        try {
            while (true) {
                byte[] chunk = queue.take();
                if (chunk == END) {
                    break;
                }
                if (open) {
                    try {
                        pipe.write(chunk);
                        pipe.flush();
                    } catch (IOException taskClosedItsInput) {
                        // Read no more (or ended): what follows is dropped, as a closed pipe drops it.
                        open = false;
                    }
                }
                if (ended && queue.isEmpty()) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                pipe.close();
            } catch (IOException ignored) {
                // the task is gone
            }
        }
    }
}
