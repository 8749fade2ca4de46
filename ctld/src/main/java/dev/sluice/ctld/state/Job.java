package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import java.util.function.Consumer;

/**
 * One job as the controller knows it. Immutable; {@link ClusterState#replay} swaps in a new
 * value on each change. Times are epoch seconds, 0 meaning "not yet" (Slurm prints Unknown).
 *
 * @param array the job's place in a job array, {@link ArrayPart#NONE} for a plain job
 * @param hold who holds it back, if anyone ({@code -H}, {@code scontrol hold})
 * @param adminPriority a priority fixed by an operator ({@code scontrol update priority=}), 0 if none
 * @param suspendTime when the job was last suspended or resumed ({@code scontrol suspend/resume}), 0 if never
 * @param preSuspendSeconds seconds it ran before its last suspension: with {@code suspendTime} it
 *     gives the run time, which (like the time limit) does not count suspended time
 * @param preemptSuspended suspended by preemption ({@code PreemptMode=SUSPEND,GANG}) rather than
 *     by {@code scontrol suspend}: its resources are lent to its preemptors, which hold them on
 *     the nodes, and it resumes when they are free again
 */
public record Job(
        int id,
        JobRequest request,
        String partition,
        JobState state,
        JobReason reason,
        long submitTime,
        long eligibleTime,
        long startTime,
        long endTime,
        long timeLimitMinutes,
        Allocation allocation,
        int exitStatus,
        int restartCount,
        ArrayPart array,
        Hold hold,
        long adminPriority,
        long suspendTime,
        long preSuspendSeconds,
        boolean preemptSuspended) {

    /** Slurm's two kinds of hold: by the owner (JobHeldUser) or by an operator (JobHeldAdmin). */
    public enum Hold {
        NONE,
        USER,
        ADMIN
    }

    public Job {
        requireNonNull(request, "request is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(state, "state is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(array, "array is null");
        requireNonNull(hold, "hold is null");
    }

    public static Job submitted(
            int id, JobRequest request, String partition, long timeLimit, long submitTime, ArrayPart array) {
        long eligible = Math.max(submitTime, request.sequencing().beginTime());
        return new Job(
                id,
                request,
                partition,
                JobState.PENDING,
                JobReason.NONE,
                submitTime,
                eligible,
                0,
                0,
                timeLimit,
                null,
                0,
                0,
                array,
                request.hold() ? Hold.USER : Hold.NONE,
                0,
                0,
                0,
                false);
    }

    /** A plain (non-array) job as submitted. */
    public static Job submitted(int id, JobRequest request, String partition, long timeLimit, long submitTime) {
        return submitted(id, request, partition, timeLimit, submitTime, ArrayPart.NONE);
    }

    /** A mutable copy used only to derive the next immutable value. */
    public static final class Builder {
        private String partition;
        private JobState state;
        private JobReason reason;
        private long eligibleTime;
        private long startTime;
        private long endTime;
        private long timeLimitMinutes;
        private Allocation allocation;
        private int exitStatus;
        private int restartCount;
        private ArrayPart array;
        private Hold hold;
        private long adminPriority;
        private long suspendTime;
        private long preSuspendSeconds;
        private boolean preemptSuspended;
        private int id;
        private long submitTime;

        public Builder id(int v) {
            id = v;
            return this;
        }

        public Builder submitTime(long v) {
            submitTime = v;
            return this;
        }

        public Builder partition(String v) {
            partition = v;
            return this;
        }

        public Builder state(JobState v) {
            state = v;
            return this;
        }

        public Builder reason(JobReason v) {
            reason = v;
            return this;
        }

        public Builder eligibleTime(long v) {
            eligibleTime = v;
            return this;
        }

        public Builder startTime(long v) {
            startTime = v;
            return this;
        }

        public Builder endTime(long v) {
            endTime = v;
            return this;
        }

        public Builder timeLimitMinutes(long v) {
            timeLimitMinutes = v;
            return this;
        }

        public Builder allocation(Allocation v) {
            allocation = v;
            return this;
        }

        public Builder exitStatus(int v) {
            exitStatus = v;
            return this;
        }

        public Builder restartCount(int v) {
            restartCount = v;
            return this;
        }

        public Builder array(ArrayPart v) {
            array = v;
            return this;
        }

        public Builder hold(Hold v) {
            hold = v;
            return this;
        }

        public Builder adminPriority(long v) {
            adminPriority = v;
            return this;
        }

        public Builder suspendTime(long v) {
            suspendTime = v;
            return this;
        }

        public Builder preSuspendSeconds(long v) {
            preSuspendSeconds = v;
            return this;
        }

        public Builder preemptSuspended(boolean v) {
            preemptSuspended = v;
            return this;
        }
    }

    /** The job with some fields changed. */
    public Job with(Consumer<Builder> change) {
        return with(request, change);
    }

    /** The same job with another request ({@code scontrol update}) and the changes given. */
    public Job with(JobRequest newRequest, Consumer<Builder> change) {
        Builder b = new Builder();
        b.id = id;
        b.partition = partition;
        b.state = state;
        b.reason = reason;
        b.eligibleTime = eligibleTime;
        b.startTime = startTime;
        b.endTime = endTime;
        b.timeLimitMinutes = timeLimitMinutes;
        b.allocation = allocation;
        b.exitStatus = exitStatus;
        b.restartCount = restartCount;
        b.array = array;
        b.hold = hold;
        b.adminPriority = adminPriority;
        b.suspendTime = suspendTime;
        b.preSuspendSeconds = preSuspendSeconds;
        b.preemptSuspended = preemptSuspended;
        b.submitTime = submitTime;
        change.accept(b);
        return new Job(
                b.id,
                newRequest,
                b.partition,
                b.state,
                b.reason,
                b.submitTime,
                b.eligibleTime,
                b.startTime,
                b.endTime,
                b.timeLimitMinutes,
                b.allocation,
                b.exitStatus,
                b.restartCount,
                b.array,
                b.hold,
                b.adminPriority,
                b.suspendTime,
                b.preSuspendSeconds,
                b.preemptSuspended);
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

    /**
     * @param submitTime when its next run counts as submitted: Slurm's accounting keeps one
     *     record per run, keyed by job id and submit time, so a requeue submits the job anew
     *     (scontrol shows the requeue's time as SubmitTime)
     * @param eligibleTime when it may start again (Slurm holds a requeued job back a while)
     */
    public Job requeued(long submitTime, long eligibleTime, boolean held) {
        return with(b -> b.submitTime(submitTime)
                .state(JobState.PENDING)
                .reason(held ? JobReason.REQUEUED_HELD : JobReason.BEGIN_TIME)
                .suspendTime(0)
                .preSuspendSeconds(0)
                .preemptSuspended(false)
                .eligibleTime(eligibleTime)
                .startTime(0)
                .endTime(0)
                .allocation(null)
                .exitStatus(0)
                .restartCount(restartCount + 1));
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
        return state.holdsResources() && !preemptSuspended;
    }

    /** Seconds run up to {@code now}, suspended time left out (Slurm's RunTime). */
    public long runSeconds(long now) {
        if (startTime <= 0 || state == JobState.PENDING) {
            return 0;
        }
        if (state == JobState.SUSPENDED || (state.isFinished() && preemptSuspended)) {
            // Ended while suspended by preemption (or a gang's turn): it ran no more since.
            return preSuspendSeconds;
        }
        long until = state.isFinished() ? endTime : now;
        long from = suspendTime > 0 ? suspendTime : startTime;
        return preSuspendSeconds + Math.max(0, until - from);
    }

    /**
     * Seconds it has spent suspended (sacct's Suspended): up to its end once ended, else up to
     * its last suspension or resumption (what accounting was last told).
     */
    public long suspendedSeconds() {
        if (startTime <= 0 || state == JobState.PENDING) {
            return 0;
        }
        if (state.isFinished()) {
            return Math.max(0, endTime - startTime - runSeconds(endTime));
        }
        return suspendTime > 0 ? Math.max(0, suspendTime - startTime - preSuspendSeconds) : 0;
    }

    public boolean isPending() {
        return state == JobState.PENDING;
    }

    /**
     * Its reason as it stands without a scheduling pass's view (accounting's record): a pending
     * job's hold, unless it was requeued held (which says so), else the reason it carries.
     */
    public JobReason standingReason() {
        if (!isPending() || reason == JobReason.REQUEUED_HELD) {
            return reason;
        }
        return switch (hold) {
            case USER -> JobReason.JOB_HELD_USER;
            case ADMIN -> JobReason.JOB_HELD_ADMIN;
            case NONE -> reason;
        };
    }

    public boolean isRunning() {
        return state.holdsResources();
    }

    /** Slurm's name for a job in messages and squeue: {@code 123} or {@code 123_4}. */
    public String displayId() {
        return array.displayId(id);
    }
}
