package dev.sluice.cli.command.sstat;

import dev.sluice.protocol.v1.TaskUsage;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One step's figures as sstat prints them, from its tasks' usage: for each measure the smallest
 * and the largest task (with its node and task id), the mean over tasks and the total. Pure.
 */
record StepStats(
        int tasks,
        Measure vmsize,
        Measure rss,
        Measure pages,
        Measure cpu,
        Measure read,
        Measure write,
        double cpuFreqKhz,
        String pids) {

    /** A measure over the tasks. */
    record Measure(
            double min,
            String minNode,
            int minTask,
            double max,
            String maxNode,
            int maxTask,
            double mean,
            double total) {}

    static StepStats of(List<TaskUsage> tasks) {
        StringBuilder pids = new StringBuilder();
        double freq = 0;
        for (TaskUsage t : tasks) {
            for (int pid : t.getPidsList()) {
                if (!pids.isEmpty()) {
                    pids.append(',');
                }
                pids.append(pid);
            }
            freq += t.getCpuFreqKhz();
        }
        return new StepStats(
                tasks.size(),
                measure(tasks, TaskUsage::getVmsizeKb),
                measure(tasks, TaskUsage::getRssKb),
                measure(tasks, TaskUsage::getPages),
                measure(tasks, TaskUsage::getCpuSeconds),
                measure(tasks, TaskUsage::getReadBytes),
                measure(tasks, TaskUsage::getWriteBytes),
                tasks.isEmpty() ? 0 : freq / tasks.size(),
                pids.toString());
    }

    /** Ties go to the first task listed (the lowest task id: the node daemons list them in order). */
    static Measure measure(List<TaskUsage> tasks, ToDoubleFunction<TaskUsage> f) {
        if (tasks.isEmpty()) {
            return new Measure(0, "", 0, 0, "", 0, 0, 0);
        }
        TaskUsage lo = tasks.get(0);
        TaskUsage hi = tasks.get(0);
        double total = 0;
        for (TaskUsage t : tasks) {
            double v = f.applyAsDouble(t);
            total += v;
            if (v < f.applyAsDouble(lo)) {
                lo = t;
            }
            if (v > f.applyAsDouble(hi)) {
                hi = t;
            }
        }
        return new Measure(
                f.applyAsDouble(lo),
                lo.getNode(),
                lo.getTaskId(),
                f.applyAsDouble(hi),
                hi.getNode(),
                hi.getTaskId(),
                total / tasks.size(),
                total);
    }
}
