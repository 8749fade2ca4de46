package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.Transition;
import java.util.ArrayList;
import java.util.List;

/**
 * The end of an allocation without a batch script (salloc, a lone srun): the command that held
 * it has ended. As Slurm's {@code slurm_complete_job}: the job ends COMPLETED for status 0 and
 * FAILED otherwise, with the command's status as its exit code; one that was still pending
 * (the user gave up waiting) is CANCELLED. Any step task still on its nodes is killed.
 */
public final class AllocationControl {
    private AllocationControl() {}

    public static ControlResult<Void> complete(ClusterView state, Caller caller, int jobId, int status, long now) {
        Job job = state.job(jobId);
        if (job == null) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        if (!caller.isOperator() && caller.uid() != job.request().owner().uid()) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        if (!job.request().launch().script().isEmpty()) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID, "Job " + jobId + " is a batch job, not an allocation");
        }
        if (job.status().state().isFinished()) {
            return ControlResult.answer(null);
        }
        Transition ended = JobLifecycle.apply(job, new JobEvent.AllocationEnded(status), now);
        return ControlResult.of(ended.records(), ended.effects(), null);
    }

    /**
     * Allocations have no batch script whose node daemon would enforce their time limit, so the
     * controller does (once a second): TIMEOUT, and their steps are killed on every node.
     */
    public static ControlResult<Void> expire(ClusterView state, long now) {
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        for (Job job : state.jobs()) {
            long limit = job.terms().timeLimitMinutes();
            // A suspended job's clock stands still: runSeconds leaves the pause out.
            if (job.status().state() == JobState.RUNNING
                    && job.request().launch().script().isEmpty()
                    && limit > 0
                    && limit < JobRequest.TIME_NOT_SET
                    && job.runSeconds(now) >= limit * 60) {
                Transition timedOut = JobLifecycle.apply(job, new JobEvent.TimeLimitReached(), now);
                records.addAll(timedOut.records());
                effects.addAll(timedOut.effects());
            }
        }
        return ControlResult.of(records, effects, null);
    }
}
