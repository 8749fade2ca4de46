package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobState;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code scontrol requeue|requeuehold|suspend|resume}: a started job is put back in the queue,
 * or paused and continued where it runs. Each handler refuses with Slurm 22.05's error and then
 * changes nothing; what it decides is journaled before the nodes are told.
 */
public final class JobRunControl {
    /** Slurm's answer to suspend/resume of a job id it does not know. */
    static final String UNKNOWN_JOB = "Unexpected message received";

    private JobRunControl() {}

    /**
     * Requeue: a running (or suspended) batch job is killed and pends again; an ended one pends
     * again too. Owners may requeue their own jobs, operators any; a job submitted with
     * {@code --no-requeue} may not be.
     *
     * @param held {@code requeuehold}: the job pends held (an operator's hold when an operator asks)
     */
    public static ControlResult<Void> requeue(ClusterView state, Caller caller, String target, boolean held, long now) {
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        for (JobTargets.Target t : JobTargets.resolve(state, target)) {
            Job job = t.job();
            if (!caller.mayActOnJobOf(job.request().owner().uid())) {
                throw new SlurmException(ErrorCode.ACCESS_DENIED);
            }
            if (job.isPending()) {
                throw new SlurmException(ErrorCode.JOB_PENDING);
            }
            if (job.request().script().isEmpty()) {
                throw new SlurmException(ErrorCode.BATCH_ONLY);
            }
            if (!job.request().requeue()) {
                throw new SlurmException(ErrorCode.DISABLED);
            }
            records.add(new StateRecord.JobRequeued(job.id(), held, now));
            if (held) {
                records.add(new StateRecord.JobHoldChanged(
                        job.id(), caller.isOperator() ? Job.Hold.ADMIN : Job.Hold.USER, now));
            }
            if (job.isRunning()) {
                // The old run's end report names the old restart count, so it cannot end the new run.
                effects.add(new Effect.Terminate(job.id(), job.allocation().nodeNames(), JobState.CANCELLED));
            }
        }
        return ControlResult.of(records, effects, null);
    }

    /**
     * Suspend ({@code suspend}) or resume a running job: operators only. The job keeps its
     * resources; its nodes stop (SIGSTOP) or continue (SIGCONT) its processes, and the run time
     * (hence the time limit) does not count the pause. Suspending a suspended job changes nothing.
     */
    public static ControlResult<Void> suspend(
            ClusterView state, Caller caller, String target, boolean suspend, long now) {
        List<JobTargets.Target> targets;
        try {
            targets = JobTargets.resolve(state, target);
        } catch (SlurmException e) {
            if (e.code() == ErrorCode.INVALID_JOB_ID) {
                throw new SlurmException(ErrorCode.UNEXPECTED, UNKNOWN_JOB);
            }
            throw e;
        }
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        for (JobTargets.Target t : targets) {
            Job job = t.job();
            if (!caller.isOperator()) {
                throw new SlurmException(ErrorCode.ACCESS_DENIED);
            }
            if (job.isPending()) {
                throw new SlurmException(ErrorCode.JOB_PENDING);
            }
            if (job.state().isFinished()) {
                throw new SlurmException(ErrorCode.ALREADY_DONE);
            }
            boolean suspended = job.state() == JobState.SUSPENDED;
            if (suspend == suspended) {
                if (suspend) {
                    continue;
                }
                throw new SlurmException(ErrorCode.JOB_NOT_SUSPENDED);
            }
            records.add(new StateRecord.JobSuspendChanged(job.id(), suspend, job.runSeconds(now), now));
            effects.add(new Effect.Suspend(job.id(), job.allocation().nodeNames(), suspend));
        }
        return ControlResult.of(records, effects, null);
    }
}
