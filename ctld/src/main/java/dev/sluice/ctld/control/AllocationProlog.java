package dev.sluice.ctld.control;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.NodeTransition;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.Transition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code PrologFlags=Alloc} (without {@code NoHold}): a job started while a Prolog runs at
 * allocation on every node of it waits for them all, with reason {@code Prolog}, until each node
 * reports its Prolog done, as Slurm 22.05's slurmctld keeps WAIT_PROLOG (compat 262). A Prolog
 * that fails drains its node and gives the job back to the queue, held (compat 263, 264). Signals
 * are not held meanwhile (slurmctld passes them on at once, and slurmd, with no process of the
 * job yet, drops them): the node daemon drops them too.
 */
public final class AllocationProlog {
    private AllocationProlog() {}

    /** What a start in a scheduling pass journals: the run waits for its Prolog on each of its nodes. */
    public static List<StateRecord> started(StateRecord.JobStarted started, boolean prologWaited) {
        return prologWaited
                ? List.of(new StateRecord.PrologWait(
                        started.jobId(), Set.copyOf(started.allocation().nodeNames()), started.time()))
                : List.of();
    }

    /**
     * A node ran the job's allocation Prolog, and it succeeded: journaled, as the wait is (a
     * restarted controller waits for the nodes that have not reported, and they report once). A
     * report for a run that does not wait on that node (a repeat, a requeued job's earlier run, a
     * node not in the allocation) changes nothing.
     */
    public static ControlResult<Void> prologDone(
            ClusterView state, String node, int jobId, int restartCount, long now) {
        Job job = waiting(state, node, jobId, restartCount);
        if (job == null) {
            return ControlResult.answer(null);
        }
        Set<String> left = new HashSet<>(state.prologRunsOn(job));
        left.remove(node);
        // Journaled: the node reports once, so a restarted controller must know it did.
        return ControlResult.of(List.of(new StateRecord.PrologWait(jobId, left, now)), List.of(), null);
    }

    /**
     * A node's allocation Prolog exited non-zero (on the batch host of a batch job its end report
     * says so instead, {@link BatchEnds}): as in Slurm, the node is drained ({@code Prolog error})
     * and the job, which never ran, goes back to the queue, held for an operator to look at
     * ({@code launch failed requeued held}); its other nodes are told to end it. An allocation
     * without a batch script is cancelled instead.
     */
    public static ControlResult<Void> prologFailed(
            ClusterView state, String node, int jobId, int restartCount, String slurmUser, long now) {
        Job job = waiting(state, node, jobId, restartCount);
        if (job == null) {
            return ControlResult.answer(null);
        }
        List<StateRecord> records = new ArrayList<>();
        records.add(new StateRecord.NodeStateChanged(node, NodeTransition.DRAIN, "Prolog error", slurmUser, now));
        // An allocation (salloc) cannot be requeued: slurmd cancels it, as root, and salloc is
        // told which node's Prolog failed (compat 264).
        boolean allocation = job.request().launch().script().isEmpty();
        Transition requeued = allocation
                ? JobLifecycle.apply(job, JobEvent.Cancel.by(0), now)
                : JobLifecycle.apply(job, new JobEvent.PrologFailed(), now);
        // The run is over: its wait goes with it. The allocation's end names the node, a
        // journaled fact of how it ended, so salloc is told it after a restart too.
        for (StateRecord r : requeued.records()) {
            records.add(r instanceof StateRecord.JobEnded ended ? ended.prologFailedOn(node) : r);
        }
        return ControlResult.of(records, requeued.effects(), null);
    }

    /** The job, when this run of it waits for {@code node}'s Prolog; null otherwise. */
    private static Job waiting(ClusterView state, String node, int jobId, int restartCount) {
        Job job = state.job(jobId);
        if (job == null
                || job.run().restartCount() != restartCount
                || !state.prologRunsOn(job).contains(node)) {
            return null;
        }
        return job;
    }
}
