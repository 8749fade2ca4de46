package dev.sluice.packaging.replay;

import java.util.List;

/**
 * Everything one replay produced, before any statistics.
 *
 * @param traceJobs job lines in the trace
 * @param skipped lines without a run time or processor count, not replayed
 * @param refused jobs the controller refused at submission, as "job N: Slurm's error", in trace order
 * @param neverStarted jobs still pending when nothing was left to happen (a limit they can never meet)
 * @param passes scheduling passes run
 * @param totalCpus CPUs of every node of the cluster
 */
public record ReplayResult(
        List<JobOutcome> outcomes,
        int traceJobs,
        int skipped,
        List<String> refused,
        int neverStarted,
        long passes,
        long totalCpus) {
    public ReplayResult {
        outcomes = List.copyOf(outcomes);
        refused = List.copyOf(refused);
    }
}
