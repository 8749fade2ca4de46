package dev.sluice.ctld.state;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Soft: the runs whose allocation Prolog still runs and is waited for ({@code PrologFlags=Alloc}
 * without {@code NoHold}): they show reason {@code Prolog}, as Slurm's slurmctld keeps its
 * WAIT_PROLOG until the node reports the Prolog done. Kept by run (its start time), so a
 * requeued job's next run starts unmarked; a restart of the controller forgets it (the job then
 * shows no reason, as once the Prolog is done).
 */
final class PrologWaits {
    /** Job id → the start time of the run that waits. */
    private final Map<Integer, Long> runs = new HashMap<>();

    void started(int jobId, long startTime) {
        runs.put(jobId, startTime);
    }

    void done(int jobId) {
        runs.remove(jobId);
    }

    boolean waits(Job job) {
        Long start = runs.get(job.id());
        return start != null && job.isRunning() && job.run().startTime() == start;
    }

    Set<Integer> waiting(IntFunction<Job> jobs) {
        Set<Integer> out = new HashSet<>();
        runs.keySet().forEach(id -> {
            Job job = jobs.apply(id);
            if (job != null && waits(job)) {
                out.add(id);
            }
        });
        return out;
    }

    void purged(Collection<Integer> jobIds) {
        jobIds.forEach(runs::remove);
    }
}
