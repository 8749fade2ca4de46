package dev.sluice.ctld.state;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * What was done to a job's current run and must not be done again, kept by run (its start time),
 * so a requeued job's next run starts unmarked: its {@code --signal} went out (soft: a restart
 * forgets it), or it was preempted with a GraceTime and dies at a deadline (replayed from the
 * journal's {@code JobPreemptGraceStarted}, so a restart keeps it).
 */
final class RunMarks {
    /** The run (start time) of each job whose --signal went out. */
    private final Map<Integer, Long> warned = new HashMap<>();

    private final Map<Integer, ClusterState.PreemptGrace> graced = new HashMap<>();

    void warnSignalSent(int jobId, long startTime) {
        warned.put(jobId, startTime);
    }

    boolean warnSignalSent(Job job) {
        return warned.getOrDefault(job.id(), -1L) == job.run().startTime();
    }

    void preemptGraceStarted(int jobId, ClusterState.PreemptGrace grace) {
        graced.put(jobId, grace);
    }

    /** When this run of the job is to be killed for preemption, if it is in its GraceTime. */
    Optional<ClusterState.PreemptGrace> preemptGrace(Job job) {
        ClusterState.PreemptGrace g = graced.get(job.id());
        return g != null && isThisRun(g, job) ? Optional.of(g) : Optional.empty();
    }

    /** The jobs whose current run is in its preemption GraceTime. */
    Set<Integer> preempting(IntFunction<Job> jobs) {
        Set<Integer> out = new HashSet<>();
        graced.forEach((id, g) -> {
            Job job = jobs.apply(id);
            if (job != null && isThisRun(g, job)) {
                out.add(id);
            }
        });
        return out;
    }

    void purged(Collection<Integer> jobIds) {
        jobIds.forEach(warned::remove);
        jobIds.forEach(graced::remove);
    }

    private static boolean isThisRun(ClusterState.PreemptGrace g, Job job) {
        return job.isRunning() && job.run().startTime() == g.startTime();
    }
}
