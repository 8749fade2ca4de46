package dev.sluice.ctld.state;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The runs whose allocation Prolog still runs and is waited for ({@code PrologFlags=Alloc}
 * without {@code NoHold}), and on which of their nodes: they show reason {@code Prolog}, as
 * Slurm's slurmctld keeps its WAIT_PROLOG until every node of the allocation reports its Prolog
 * done (compat 262). Replayed from the journal's {@link StateRecord.PrologWait} records, so a
 * restarted controller waits for the nodes that have not reported. Kept by run (its start
 * time), so a requeued job's next run starts unmarked.
 */
final class PrologWaits {
    /**
     * @param endReported soft: the batch host reported the script's end, which waits for the
     *     other nodes (the job shows COMPLETING meanwhile)
     */
    private record Run(long startTime, Set<String> nodes, boolean endReported) {}

    /** Job id → the run that waits, and the nodes it waits for. */
    private final Map<Integer, Run> runs = new HashMap<>();

    void waitOn(int jobId, long startTime, Set<String> nodes) {
        if (nodes.isEmpty()) {
            runs.remove(jobId);
        } else {
            Run was = runs.get(jobId);
            boolean endReported = was != null && was.startTime() == startTime && was.endReported();
            runs.put(jobId, new Run(startTime, Set.copyOf(nodes), endReported));
        }
    }

    /** Soft: the waiting run's batch end came (nothing when the job does not wait). */
    void endReported(Job job) {
        if (waits(job)) {
            Run run = runs.get(job.id());
            runs.put(job.id(), new Run(run.startTime(), run.nodes(), true));
        }
    }

    boolean waits(Job job) {
        return !pendingOn(job).isEmpty();
    }

    Set<String> pendingOn(Job job) {
        Run run = runs.get(job.id());
        return run != null && job.isRunning() && job.run().startTime() == run.startTime() ? run.nodes() : Set.of();
    }

    Map<Integer, Set<String>> waiting(IntFunction<Job> jobs) {
        Map<Integer, Set<String>> out = new HashMap<>();
        runs.keySet().forEach(id -> {
            Job job = jobs.apply(id);
            if (job != null && waits(job)) {
                out.put(id, pendingOn(job));
            }
        });
        return out;
    }

    /** The waiting runs whose batch end came. */
    Set<Integer> endsReported(IntFunction<Job> jobs) {
        Set<Integer> out = new HashSet<>();
        runs.forEach((id, run) -> {
            Job job = jobs.apply(id);
            if (run.endReported() && job != null && waits(job)) {
                out.add(id);
            }
        });
        return out;
    }

    void purged(Collection<Integer> jobIds) {
        jobIds.forEach(runs::remove);
    }
}
