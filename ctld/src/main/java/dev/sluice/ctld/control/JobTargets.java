package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.TaskSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves the job names users type ({@code 123}, {@code 123_4}, {@code 123_[1-3,7]}) to job
 * records. A task that has not started lives inside its array's first record; it is returned
 * as that record plus the task number, and must be split off before it can be changed alone.
 */
final class JobTargets {
    private JobTargets() {}

    /** @param pendingTask the task inside {@code job}'s pending set, or -1 for the record itself */
    record Target(Job job, int pendingTask) {}

    static List<Target> resolve(ClusterView state, String text) {
        String t = text.strip();
        int under = t.indexOf('_');
        try {
            if (under < 0) {
                return whole(state, Integer.parseInt(t));
            }
            int arrayId = Integer.parseInt(t.substring(0, under));
            String tasks = t.substring(under + 1);
            if (tasks.startsWith("[") && tasks.endsWith("]")) {
                tasks = tasks.substring(1, tasks.length() - 1);
            }
            List<Target> out = new ArrayList<>();
            for (int task : TaskSet.parse(tasks, Integer.MAX_VALUE).ids()) {
                out.add(task(state, arrayId, task));
            }
            return out;
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
    }

    /** {@code 123}: a plain job, or every record of array 123. */
    private static List<Target> whole(ClusterView state, int id) {
        List<Target> out = new ArrayList<>();
        for (Job job : state.jobs()) {
            if (job.array().arrayJobId() == id) {
                out.add(new Target(job, -1));
            }
        }
        if (out.isEmpty()) {
            Job job = state.job(id);
            if (job == null) {
                throw new SlurmException(ErrorCode.INVALID_JOB_ID);
            }
            out.add(new Target(job, -1));
        }
        return out;
    }

    private static Target task(ClusterView state, int arrayId, int task) {
        for (Job job : state.jobs()) {
            if (job.array().arrayJobId() != arrayId) {
                continue;
            }
            if (job.array().taskId() == task && job.array().pendingTasks().isEmpty()) {
                return new Target(job, -1);
            }
            if (job.array().pendingTasks().contains(task)) {
                return new Target(job, task);
            }
        }
        throw new SlurmException(ErrorCode.INVALID_JOB_ID);
    }
}
