package dev.sluice.cli.view;

import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.protocol.v1.JobInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One {@code squeue -j} or {@code scontrol show job} item: a job ({@code 12}), which also names every task of an array
 * with that id, or one array task ({@code 11_3}).
 *
 * @param task the array task, or -1 for the whole job or array
 */
public record JobSelector(long id, int task) {
    /** {@code N} or {@code N_M}; empty when squeue would say "Invalid job id". */
    public static Optional<JobSelector> parse(String text) {
        int us = text.indexOf('_');
        String base = us >= 0 ? text.substring(0, us) : text;
        String task = us >= 0 ? text.substring(us + 1) : null;
        if (!digits(base, 10) || (task != null && !digits(task, 9))) {
            return Optional.empty();
        }
        long n = Long.parseLong(base);
        if (n <= 0 || n > SlurmLimits.MAX_UINT32) {
            return Optional.empty();
        }
        return Optional.of(new JobSelector(n, task == null ? -1 : Integer.parseInt(task)));
    }

    private static boolean digits(String s, int max) {
        return !s.isEmpty() && s.length() <= max && s.chars().allMatch(Character::isDigit);
    }

    public boolean matches(JobView job) {
        JobInfo j = job.info();
        long arrayId = Integer.toUnsignedLong(j.getArrayJobId());
        if (task < 0) {
            return Integer.toUnsignedLong(j.getJobId()) == id || (arrayId != 0 && arrayId == id);
        }
        if (arrayId != id) {
            return false;
        }
        return j.getArrayTaskId() >= 0
                ? j.getArrayTaskId() == task
                : ArrayTasks.expand(j.getArrayTaskStr()).contains(task);
    }

    /**
     * squeue {@code -j 11_2,11_4}: a record standing for several pending tasks shows only the
     * tasks named ({@code 11_[2,4]}, without the throttle, or {@code 11_2} for one), as Slurm's
     * squeue narrows it; named as a whole ({@code -j 11}) it stays as it is.
     */
    public static List<JobInfo> narrow(List<JobInfo> jobs, List<JobSelector> selectors) {
        List<JobInfo> out = new ArrayList<>();
        for (JobInfo j : jobs) {
            long arrayId = Integer.toUnsignedLong(j.getArrayJobId());
            if (arrayId == 0 || j.getArrayTaskId() >= 0 || j.getArrayTaskStr().isEmpty()) {
                out.add(j);
                continue;
            }
            long jobId = Integer.toUnsignedLong(j.getJobId());
            boolean whole = selectors.stream().anyMatch(s -> s.task < 0 && (s.id == arrayId || s.id == jobId));
            List<Integer> pending = ArrayTasks.expand(j.getArrayTaskStr());
            List<Integer> named = pending.stream()
                    .filter(t -> selectors.stream().anyMatch(s -> s.id == arrayId && s.task == t))
                    .toList();
            if (whole || named.isEmpty()) {
                out.add(j);
            } else if (named.size() == 1) {
                out.add(j.toBuilder()
                        .setArrayTaskId(named.get(0))
                        .setArrayTaskStr("")
                        .setDisplayId(arrayId + "_" + named.get(0))
                        .build());
            } else {
                String tasks = ArrayTasks.format(named);
                out.add(j.toBuilder()
                        .setArrayTaskStr(tasks)
                        .setDisplayId(arrayId + "_[" + tasks + "]")
                        .build());
            }
        }
        return out;
    }

    /**
     * squeue {@code -r}: a record standing for several pending tasks becomes one record per
     * task ({@code 11_[3-4%2]} lists as {@code 11_3} and {@code 11_4}).
     */
    public static List<JobInfo> oneLinePerTask(List<JobInfo> jobs) {
        List<JobInfo> out = new ArrayList<>();
        for (JobInfo j : jobs) {
            if (j.getArrayJobId() == 0
                    || j.getArrayTaskId() >= 0
                    || j.getArrayTaskStr().isEmpty()) {
                out.add(j);
                continue;
            }
            String arrayId = Integer.toUnsignedString(j.getArrayJobId());
            for (int t : ArrayTasks.expand(j.getArrayTaskStr())) {
                out.add(j.toBuilder()
                        .setArrayTaskId(t)
                        .setArrayTaskStr("")
                        .setDisplayId(arrayId + "_" + t)
                        .build());
            }
        }
        return out;
    }
}
