package dev.sluice.ctld.state;

import java.util.HashMap;
import java.util.Map;

/**
 * The job ids that array tasks split off their record get within one decision (a scheduling
 * pass starting several tasks, an {@code scontrol release} of several pending tasks): the record's last
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
        int left = left(record, taskId);
        pendingLeft.put(record.id(), left - 1);
        return left == 1 ? record.id() : nextJobId++;
    }

    /**
     * Whether pending task {@code taskId} can simply leave {@code record} (a cancelled task):
     * true, and counted, unless it is the record's last task, which is the record itself.
     */
    public boolean drops(Job record, int taskId) {
        int left = left(record, taskId);
        if (left == 1) {
            return false;
        }
        pendingLeft.put(record.id(), left - 1);
        return true;
    }

    private int left(Job record, int taskId) {
        if (!record.array().pendingTasks().contains(taskId)) {
            throw new IllegalStateException("task " + taskId + " is not pending in job " + record.id());
        }
        return pendingLeft.getOrDefault(
                record.id(), record.array().pendingTasks().size());
    }
}
