package dev.sluice.ctld.rpc;

import dev.sluice.ctld.state.Job;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which Slurm 22.05's controller lists jobs, which squeue's stable sorts keep
 * between jobs they do not tell apart (two array tasks started in the same second, say).
 *
 * <p>All jobs: slurmctld's job list, in the order its records were made. A plain job's record
 * is made at submission. An array's first record is made at submission too, and when a task
 * starts on its own the task keeps the record and a new one is made for the tasks still
 * pending: so each task split off with a fresh id sits where the array's record was made
 * before it (at the previous split, or at submission), and the array's record (its pending
 * tasks, or its last task) where the latest split made it.
 *
 * <p>One job by id ({@code squeue -j 7}, Slurm's load of a single job): the record with that id
 * first, then the array's other records, the task split off last first (Slurm's array hash
 * puts each new task at the head of its chain).
 */
final class SlurmListOrder {
    private SlurmListOrder() {}

    /** @param jobs the jobs to list, in job id order */
    static List<Job> all(List<Job> jobs) {
        Map<Integer, Integer> place = new HashMap<>();
        Map<Integer, Integer> lastSplit = new HashMap<>();
        for (Job j : jobs) {
            int array = j.array().arrayJobId();
            if (!j.array().isArray() || j.id() == array) {
                continue;
            }
            // Ids ascend: the array's previous split is the one seen before this.
            place.put(j.id(), lastSplit.getOrDefault(array, array));
            lastSplit.put(array, j.id());
        }
        for (Job j : jobs) {
            if (!place.containsKey(j.id())) {
                place.put(j.id(), j.array().isArray() ? lastSplit.getOrDefault(j.id(), j.id()) : j.id());
            }
        }
        List<Job> out = new ArrayList<>(jobs);
        out.sort(Comparator.comparingInt(j -> place.get(j.id())));
        return out;
    }

    /** @param jobs the records of job {@code id} (and of its array), in job id order */
    static List<Job> one(int id, List<Job> jobs) {
        List<Job> out = new ArrayList<>(jobs.size());
        jobs.stream().filter(j -> j.id() == id).forEach(out::add);
        List<Job> rest = new ArrayList<>(jobs);
        rest.removeIf(j -> j.id() == id);
        out.addAll(rest.reversed());
        return out;
    }
}
