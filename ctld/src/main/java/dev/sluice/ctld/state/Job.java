package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import java.util.function.Consumer;

/**
 * One job as the controller knows it. Immutable; {@link ClusterState#replay} swaps in a new
 * value on each change. Its parts: the terms it runs on, where it stands, its current run's times
 * and its suspensions. Readers take a part's field through the part ({@code job.status().state()},
 * {@code job.run().startTime()}); the methods below derive what no single part holds.
 *
 * @param array the job's place in a job array, {@link ArrayPart#NONE} for a plain job
 * @param allocation what it holds while it runs; null while pending
 */
public record Job(
        int id,
        JobRequest request,
        ArrayPart array,
        JobTerms terms,
        JobStatus status,
        JobRun run,
        Allocation allocation,
        Suspension suspension) {

    /**
     * Slurm's kinds of hold: by the owner (JobHeldUser), by an operator (JobHeldAdmin), or by the
     * controller when the reservation the pending job names is forgotten (RESV_DEL_HOLD, compat
     * 255). The last keeps the reservation's name in the request only to say which was deleted;
     * the job is shown with none, and released it runs without it.
     */
    public enum Hold {
        NONE,
        USER,
        ADMIN,
        RESV_DEL
    }

    public Job {
        requireNonNull(request, "request is null");
        requireNonNull(array, "array is null");
        requireNonNull(terms, "terms is null");
        requireNonNull(status, "status is null");
        requireNonNull(run, "run is null");
        requireNonNull(suspension, "suspension is null");
    }

    public static Job submitted(
            int id, JobRequest request, String partition, long timeLimit, long submitTime, ArrayPart array) {
        long eligible = Math.max(submitTime, request.sequencing().beginTime());
        return new Job(
                id,
                request,
                array,
                new JobTerms(partition, timeLimit, request.hold() ? Hold.USER : Hold.NONE, 0),
                JobStatus.PENDING,
                JobRun.submitted(submitTime, eligible),
                null,
                Suspension.NONE);
    }

    /** A plain (non-array) job as submitted. */
    public static Job submitted(int id, JobRequest request, String partition, long timeLimit, long submitTime) {
        return submitted(id, request, partition, timeLimit, submitTime, ArrayPart.NONE);
    }

    /** A mutable copy used only to derive the next immutable value: each setter changes one part. */
    public static final class Builder {
        private int id;
        private ArrayPart array;
        private JobTerms terms;
        private JobStatus status;
        private JobRun run;
        private Allocation allocation;
        private Suspension suspension;

        private Builder(Job j) {
            id = j.id;
            array = j.array;
            terms = j.terms;
            status = j.status;
            run = j.run;
            allocation = j.allocation;
            suspension = j.suspension;
        }

        public Builder id(int v) {
            id = v;
            return this;
        }

        public Builder array(ArrayPart v) {
            array = v;
            return this;
        }

        public Builder allocation(Allocation v) {
            allocation = v;
            return this;
        }

        public Builder partition(String v) {
            terms = terms.withPartition(v);
            return this;
        }

        public Builder timeLimitMinutes(long v) {
            terms = terms.withTimeLimitMinutes(v);
            return this;
        }

        public Builder hold(Hold v) {
            terms = terms.withHold(v);
            return this;
        }

        public Builder adminPriority(long v) {
            terms = terms.withAdminPriority(v);
            return this;
        }

        public Builder state(JobState v) {
            status = status.withState(v);
            return this;
        }

        public Builder reason(JobReason v) {
            status = status.withReason(v);
            return this;
        }

        public Builder exitStatus(int v) {
            status = status.withExitStatus(v);
            return this;
        }

        public Builder prologFailedNode(String v) {
            status = status.withPrologFailedNode(v);
            return this;
        }

        public Builder submitTime(long v) {
            run = run.withSubmitTime(v);
            return this;
        }

        public Builder eligibleTime(long v) {
            run = run.withEligibleTime(v);
            return this;
        }

        public Builder startTime(long v) {
            run = run.withStartTime(v);
            return this;
        }

        public Builder endTime(long v) {
            run = run.withEndTime(v);
            return this;
        }

        public Builder restartCount(int v) {
            run = run.withRestartCount(v);
            return this;
        }

        public Builder suspendTime(long v) {
            suspension = suspension.withTime(v);
            return this;
        }

        public Builder preSuspendSeconds(long v) {
            suspension = suspension.withPreSuspendSeconds(v);
            return this;
        }

        public Builder preemptSuspended(boolean v) {
            suspension = suspension.withByPreemption(v);
            return this;
        }
    }

    /** The job with some fields changed. */
    public Job with(Consumer<Builder> change) {
        return with(request, change);
    }

    /** The same job with another request ({@code scontrol update}) and the changes given. */
    public Job with(JobRequest newRequest, Consumer<Builder> change) {
        Builder b = new Builder(this);
        change.accept(b);
        return new Job(b.id, newRequest, b.array, b.terms, b.status, b.run, b.allocation, b.suspension);
    }

    public Job started(Allocation alloc, long time, long limit, String part) {
        return with(b -> b.state(JobState.RUNNING)
                .reason(JobReason.NONE)
                .startTime(time)
                .endTime(0)
                .timeLimitMinutes(limit)
                .allocation(alloc)
                .exitStatus(0)
                .partition(part));
    }

    public Job ended(JobState endState, int status, long time, JobReason endReason) {
        return with(b -> b.state(endState).exitStatus(status).endTime(time).reason(endReason));
    }

    /** Ended as {@link #ended(JobState, int, long, JobReason)}, by its allocation Prolog failing on {@code node} (or "": not). */
    public Job ended(JobState endState, int status, long time, JobReason endReason, String prologFailedNode) {
        return ended(endState, status, time, endReason).with(b -> b.prologFailedNode(prologFailedNode));
    }

    /**
     * @param submitTime when its next run counts as submitted: Slurm's accounting keeps one
     *     record per run, keyed by job id and submit time, so a requeue submits the job anew
     *     (scontrol shows the requeue's time as SubmitTime)
     * @param eligibleTime when it may start again (Slurm holds a requeued job back a while)
     */
    public Job requeued(long submitTime, long eligibleTime, boolean held, boolean launchFailed) {
        JobReason reason = launchFailed
                ? JobReason.LAUNCH_FAILED_REQUEUED_HELD
                : held ? JobReason.REQUEUED_HELD : JobReason.BEGIN_TIME;
        return with(b -> b.submitTime(submitTime)
                .state(JobState.PENDING)
                .reason(reason)
                .suspendTime(0)
                .preSuspendSeconds(0)
                .preemptSuspended(false)
                .eligibleTime(eligibleTime)
                .startTime(0)
                .endTime(0)
                .allocation(null)
                .exitStatus(0)
                .prologFailedNode("")
                .restartCount(run.restartCount() + 1));
    }

    /**
     * Suspended ({@code scontrol suspend}) or running again ({@code scontrol resume}): the run
     * time accrued so far is kept, so that the time limit does not count the pause.
     */
    public Job suspended(boolean suspend, long preSuspend, long time, boolean byPreemption) {
        return with(b -> b.state(suspend ? JobState.SUSPENDED : JobState.RUNNING)
                .suspendTime(time)
                .preSuspendSeconds(preSuspend)
                .preemptSuspended(suspend && byPreemption));
    }

    /**
     * Whether the job's resources count on its nodes now: a running or suspended job's do,
     * except those of a job suspended by preemption, whose preemptors hold them.
     */
    public boolean holdsNodes() {
        return status.state().holdsResources() && !suspension.byPreemption();
    }

    /** Seconds run up to {@code now}, suspended time left out (Slurm's RunTime). */
    public long runSeconds(long now) {
        if (run.startTime() <= 0 || status.state() == JobState.PENDING) {
            return 0;
        }
        if (status.state() == JobState.SUSPENDED || (status.state().isFinished() && suspension.byPreemption())) {
            // Ended while suspended by preemption (or a gang's turn): it ran no more since.
            return suspension.preSuspendSeconds();
        }
        long until = status.state().isFinished() ? run.endTime() : now;
        long from = suspension.time() > 0 ? suspension.time() : run.startTime();
        return suspension.preSuspendSeconds() + Math.max(0, until - from);
    }

    /**
     * Seconds it has spent suspended (sacct's Suspended): up to its end once ended, else up to
     * its last suspension or resumption (what accounting was last told).
     */
    public long suspendedSeconds() {
        if (run.startTime() <= 0 || status.state() == JobState.PENDING) {
            return 0;
        }
        if (status.state().isFinished()) {
            return Math.max(0, run.endTime() - run.startTime() - runSeconds(run.endTime()));
        }
        return suspension.time() > 0
                ? Math.max(0, suspension.time() - run.startTime() - suspension.preSuspendSeconds())
                : 0;
    }

    /** Requeued held, with a reason that says so (until released). */
    public boolean requeuedHeld() {
        return status.reason() == JobReason.REQUEUED_HELD || status.reason() == JobReason.LAUNCH_FAILED_REQUEUED_HELD;
    }

    public boolean isPending() {
        return status.state() == JobState.PENDING;
    }

    /**
     * Its reason as it stands without a scheduling pass's view (accounting's record): a pending
     * job's hold, unless it was requeued held (which says so), else the reason it carries.
     */
    public JobReason standingReason() {
        if (!isPending() || requeuedHeld()) {
            return status.reason();
        }
        return switch (terms.hold()) {
            case USER -> JobReason.JOB_HELD_USER;
            case ADMIN -> JobReason.JOB_HELD_ADMIN;
            case RESV_DEL -> JobReason.RESERVATION_DELETED;
            case NONE -> status.reason();
        };
    }

    public boolean isRunning() {
        return status.state().holdsResources();
    }

    /** Slurm's name for a job in messages and squeue: {@code 123} or {@code 123_4}. */
    public String displayId() {
        return array.displayId(id);
    }
}
