package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.Transition;
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
        return requeue(state, caller, target, held, 0, now);
    }

    /**
     * @param holdBackSeconds how long the requeued job waits before it may start again: Slurm
     *     22.05 sets its BeginTime {@code cred_expire + 1} seconds ahead (squeue: BeginTime)
     */
    public static ControlResult<Void> requeue(
            ClusterView state, Caller caller, String target, boolean held, long holdBackSeconds, long now) {
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
            if (job.request().launch().script().isEmpty()) {
                throw new SlurmException(ErrorCode.BATCH_ONLY);
            }
            if (!job.request().requeue()) {
                throw new SlurmException(ErrorCode.DISABLED);
            }
            Transition requeued =
                    JobLifecycle.apply(job, new JobEvent.Requeue(held, caller.isOperator(), holdBackSeconds), now);
            records.addAll(requeued.records());
            effects.addAll(requeued.effects());
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
            if (job.status().state().isFinished()) {
                throw new SlurmException(ErrorCode.ALREADY_DONE);
            }
            boolean suspended = job.status().state() == JobState.SUSPENDED;
            if (suspend == suspended) {
                if (suspend) {
                    continue;
                }
                throw new SlurmException(ErrorCode.JOB_NOT_SUSPENDED);
            }
            Transition changed =
                    JobLifecycle.apply(job, suspend ? JobEvent.Suspend.byCommand() : new JobEvent.Resume(), now);
            records.addAll(changed.records());
            effects.addAll(changed.effects());
        }
        return ControlResult.of(records, effects, null);
    }

    /**
     * The batch script of the run that started at {@code startTime} could not be launched on its
     * node (the dispatcher gave up): the job goes back to the queue, or fails with NODE_FAIL
     * when it may not be requeued. A report about an earlier run changes nothing.
     */
    public static ControlResult<Void> launchFailed(ClusterView state, int jobId, long startTime, long now) {
        Job job = state.job(jobId);
        if (job == null || !job.isRunning() || job.run().startTime() != startTime) {
            return ControlResult.answer(null);
        }
        Transition failed = JobLifecycle.apply(job, new JobEvent.LaunchFailed(), now);
        return ControlResult.of(failed.records(), failed.effects(), null);
    }
}
