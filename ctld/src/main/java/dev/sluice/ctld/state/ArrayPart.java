package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * A job's membership of a job array. The array's first record keeps the tasks that have not
 * started ({@code pendingTasks}); each task that starts is split off into a record of its own,
 * as Slurm does, and the last pending task keeps the first record.
 *
 * @param arrayJobId the array's id (the id {@code sbatch} printed), 0 for a plain job
 * @param taskId this record's task, or -1 while the record stands for several pending tasks
 * @param pendingTasks tasks not yet started that this record stands for
 * @param throttle the most tasks that may run at once ({@code %N}), 0 for no limit
 */
public record ArrayPart(int arrayJobId, int taskId, TaskSet pendingTasks, int throttle) {
    public static final ArrayPart NONE = new ArrayPart(0, -1, TaskSet.EMPTY, 0);

    public ArrayPart {
        requireNonNull(pendingTasks, "pendingTasks is null");
    }

    public boolean isArray() {
        return arrayJobId > 0;
    }

    /** {@code 123_4} for a task, {@code 123_[5-15%4]} for pending tasks, {@code 123} otherwise. */
    public String displayId(int jobId) {
        if (!isArray()) {
            return Integer.toString(jobId);
        }
        if (taskId >= 0 && pendingTasks.isEmpty()) {
            return arrayJobId + "_" + taskId;
        }
        return arrayJobId + "_[" + pendingTasks.format() + (throttle > 0 ? "%" + throttle : "") + "]";
    }

    /** The next task to start from this record. */
    public ArrayPart without(int task) {
        return new ArrayPart(arrayJobId, taskId, pendingTasks.without(task), throttle);
    }
}
