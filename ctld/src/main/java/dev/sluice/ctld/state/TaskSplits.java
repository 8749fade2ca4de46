package dev.sluice.ctld.state;

import java.util.HashMap;
import java.util.Map;

/**
 * The job ids that array tasks split off their record get within one decision (a scheduling
 * pass starting several tasks, an {@code scancel} of several pending tasks): the record's last
 * pending task keeps the record's own id, as in Slurm; every other task gets the next fresh id.
 * Used only while a decision is made, so it counts the splits the decision has made so far.
 */
public final class TaskSplits {
    private int nextJobId;
    private final Map<Integer, Integer> pendingLeft = new HashMap<>();

    /** @param nextJobId the first fresh id ({@link ClusterView#nextJobId()}) */
    public TaskSplits(int nextJobId) {
        this.nextJobId = nextJobId;
    }

    /** The id task {@code taskId} of {@code record} will have once split off. */
    int idFor(Job record, int taskId) {
        if (!record.array().pendingTasks().contains(taskId)) {
            throw new IllegalStateException("task " + taskId + " is not pending in job " + record.id());
        }
        int left = pendingLeft.getOrDefault(
                record.id(), record.array().pendingTasks().size());
        pendingLeft.put(record.id(), left - 1);
        return left == 1 ? record.id() : nextJobId++;
    }
}
