package dev.sluice.ctld.control;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import java.util.List;

/**
 * {@code PrologFlags=Alloc} (without {@code NoHold}): a job started while a Prolog runs at
 * allocation waits for it, with reason {@code Prolog}, until its batch host reports it done, as
 * Slurm 22.05's slurmctld keeps WAIT_PROLOG. Signals are not held meanwhile (slurmctld passes
 * them on at once, and slurmd, with no process of the job yet, drops them): the node daemon
 * drops them too.
 */
public final class AllocationProlog {
    private AllocationProlog() {}

    /** What a start in a scheduling pass marks: the run waits for its Prolog when one is waited for. */
    public static List<SoftChange> started(Effect.LaunchBatch launch, boolean prologWaited, long now) {
        return prologWaited ? List.of(new SoftChange.PrologWait(launch.jobId(), now, false)) : List.of();
    }

    /**
     * The node ran the job's allocation Prolog (and it succeeded: a failed one comes as the job's
     * end). A report for a run that does not wait (a repeat, a requeued job's earlier run, a
     * controller restarted since, another node than the batch host) changes nothing.
     */
    public static ControlResult<Void> prologDone(ClusterView state, String node, int jobId, int restartCount) {
        Job job = state.job(jobId);
        if (job == null
                || job.run().restartCount() != restartCount
                || !state.waitsForProlog(job)
                || !job.allocation().batchHost().equals(node)) {
            return new ControlResult<>(List.of(), List.of(), List.of(), null);
        }
        return new ControlResult<>(
                List.of(), List.of(new SoftChange.PrologWait(jobId, job.run().startTime(), true)), List.of(), null);
    }
}
