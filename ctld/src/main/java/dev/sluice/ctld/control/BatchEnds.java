package dev.sluice.ctld.control;

import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.NodeTransition;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.Transition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A batch job's end as its batch host reports it, through the job lifecycle; with the node's
 * Prolog or Epilog failure, the node drained as Slurm drains it. Pure.
 */
public final class BatchEnds {
    private BatchEnds() {}

    /**
     * A node reports that a job's batch script ended. Reports for jobs already ended (cancelled,
     * or reported twice after a retry) change nothing, so node daemons may resend freely.
     */
    public static ControlResult<Void> complete(
            ClusterView state, String nodeName, int jobId, int exitStatus, JobState endState, long now) {
        return complete(state, nodeName, jobId, exitStatus, endState, NodeScripts.OK, "root", now);
    }

    /** How the node's Prolog and Epilog went for a job (slurm.conf {@code Prolog=}/{@code Epilog=}). */
    public enum NodeScripts {
        OK,
        PROLOG_FAILED,
        EPILOG_FAILED
    }

    /**
     * A job's end as its batch host reports it. A failed Prolog means the job never ran: as in
     * Slurm, the node is drained ({@code Prolog error}) and the job requeued and held for an
     * operator to look at; a failed Epilog leaves the job's end as it was and drains the node
     * ({@code Epilog error}).
     */
    public static ControlResult<Void> complete(
            ClusterView state,
            String nodeName,
            int jobId,
            int exitStatus,
            JobState endState,
            NodeScripts scripts,
            String slurmUser,
            long now) {
        return complete(state, nodeName, jobId, -1, exitStatus, endState, scripts, slurmUser, now);
    }

    /**
     * A batch host's report of its script's end, taken only once no other node of the run still
     * runs its allocation Prolog ({@code PrologFlags=Alloc}). The script may start, and end,
     * before the other nodes' Prologs are done (Slurm starts it then, compat 262); but should one
     * of them then fail, the run does not count: its node is drained and the job requeued held
     * (compat 263, 308). So the end waits: it is answered "not yet", the job shows COMPLETING
     * (its reason still {@code Prolog}, as slurmctld shows it), nothing durable changes, and the
     * node daemon sends it again shortly.
     *
     * @return the nodes whose Prolog the end waits for, in the answer; empty once it was taken
     */
    public static ControlResult<Set<String>> reported(ClusterView state, Report r, String slurmUser, long now) {
        Set<String> awaited = prologsAwaited(state, r.node(), r.jobId(), r.restartCount(), r.scripts());
        if (!awaited.isEmpty()) {
            return new ControlResult<>(List.of(), List.of(new SoftChange.BatchEndWaits(r.jobId())), List.of(), awaited);
        }
        ControlResult<Void> taken = complete(
                state,
                r.node(),
                r.jobId(),
                r.restartCount(),
                r.exitStatus(),
                r.endState(),
                r.scripts(),
                slurmUser,
                now);
        return new ControlResult<>(taken.records(), taken.softChanges(), taken.effects(), Set.of());
    }

    /**
     * A batch host's report of a script's end.
     *
     * @param restartCount the run it is about, -1 if unknown
     * @param endState how the script ended when the node decided it (a timeout, a cancel); null:
     *     by its exit status
     */
    public record Report(
            String node, int jobId, int restartCount, int exitStatus, JobState endState, NodeScripts scripts) {}

    /** The other nodes of this run whose allocation Prolog is not reported done yet. */
    private static Set<String> prologsAwaited(
            ClusterView state, String nodeName, int jobId, int restartCount, NodeScripts scripts) {
        Job job = state.job(jobId);
        if (scripts == NodeScripts.PROLOG_FAILED || !runsOn(job, nodeName, restartCount)) {
            return Set.of();
        }
        Set<String> others = new TreeSet<>(state.prologRunsOn(job));
        // The script ran, so the batch host's own Prolog passed, reported or not.
        others.remove(nodeName);
        return others;
    }

    /**
     * @param restartCount the run the report is about (the launch named it), -1 if unknown: the
     *     end of a run that {@code scontrol requeue} killed must not end the run after it
     */
    public static ControlResult<Void> complete(
            ClusterView state,
            String nodeName,
            int jobId,
            int restartCount,
            int exitStatus,
            JobState endState,
            NodeScripts scripts,
            String slurmUser,
            long now) {
        Job job = state.job(jobId);
        if (job != null
                && job.status().state().isFinished()
                && state.completingOn(jobId).contains(nodeName)) {
            // The end of a job already cancelled or preempted: its processes are gone from this
            // node, and the batch host says how the script died (a preempted job's ExitCode).
            boolean ofThisRun = job.allocation() != null
                    && job.allocation().batchHost().equals(nodeName)
                    && (restartCount < 0 || restartCount == job.run().restartCount());
            List<StateRecord> records =
                    ofThisRun ? JobLifecycle.endReported(job, exitStatus, now).records() : List.of();
            return new ControlResult<>(
                    records, List.of(new SoftChange.JobCompleting(jobId, nodeName, false)), List.of(), null);
        }
        if (!runsOn(job, nodeName, restartCount)) {
            return ControlResult.answer(null);
        }
        List<StateRecord> records = new ArrayList<>();
        if (scripts == NodeScripts.PROLOG_FAILED) {
            records.add(
                    new StateRecord.NodeStateChanged(nodeName, NodeTransition.DRAIN, "Prolog error", slurmUser, now));
            Transition requeued = JobLifecycle.apply(job, new JobEvent.PrologFailed(), now);
            records.addAll(requeued.records());
            return ControlResult.of(records, requeued.effects(), null);
        }
        Transition ended = JobLifecycle.apply(job, new JobEvent.BatchEnded(endState, exitStatus), now);
        records.addAll(ended.records());
        if (scripts == NodeScripts.EPILOG_FAILED) {
            records.add(
                    new StateRecord.NodeStateChanged(nodeName, NodeTransition.DRAIN, "Epilog error", slurmUser, now));
        }
        return ControlResult.of(records, ended.effects(), null);
    }

    /** Whether the report is about the job's current run, from its batch host (-1: any run). */
    private static boolean runsOn(Job job, String batchHost, int restartCount) {
        return job != null
                && job.isRunning()
                && job.allocation().batchHost().equals(batchHost)
                && (restartCount < 0 || restartCount == job.run().restartCount());
    }
}
