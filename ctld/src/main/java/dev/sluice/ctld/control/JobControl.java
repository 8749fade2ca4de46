package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.limits.Admission;
import dev.sluice.ctld.limits.DenyOnLimit;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.limits.WckeyAdmission;
import dev.sluice.ctld.sched.PartitionFit;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.ArrayRequest;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.TaskSplits;
import dev.sluice.ctld.state.Transition;
import java.util.ArrayList;
import java.util.List;

/** Job handlers: submission, cancel/signal, completion reported by a node. */
public final class JobControl {
    static final int SIGKILL = 9;

    private final Scheduler.SelectDefaults defaults;
    // slurm.conf's Licenses: scontrol reconfigure rereads them, as Slurm's does (useLicenses).
    private volatile Licenses licenses;
    private final int maxArraySize;

    private final PolicyView limits;
    /** The partitions' idle capacities and which shapes could ever fit them, per node version. */
    private final PartitionFits fits = new PartitionFits();

    private JobControl(Builder b) {
        this.defaults = b.defaults;
        this.licenses = b.defaults.licenses();
        this.maxArraySize = b.maxArraySize;
        this.limits = b.limits;
    }

    /** Job handlers with the allocator's {@code defaults}, Slurm's MaxArraySize and no limits enforced. */
    public static Builder builder(Scheduler.SelectDefaults defaults) {
        return new Builder(defaults);
    }

    /** Collects what job handling depends on; what is not set keeps Slurm's default. */
    public static final class Builder {
        private final Scheduler.SelectDefaults defaults;
        private int maxArraySize = ArrayRequest.DEFAULT_MAX_ARRAY_SIZE;
        private PolicyView limits = PolicyView.OFF;

        private Builder(Scheduler.SelectDefaults defaults) {
            this.defaults = java.util.Objects.requireNonNull(defaults, "defaults is null");
        }

        /** slurm.conf's {@code MaxArraySize}. */
        public Builder maxArraySize(int value) {
            this.maxArraySize = value;
            return this;
        }

        /** AccountingStorageEnforce and the associations and QOS it checks. */
        public Builder limits(PolicyView value) {
            this.limits = value;
            return this;
        }

        public JobControl build() {
            return new JobControl(this);
        }
    }

    /**
     * Accepts a batch job or rejects it with Slurm's error. A job that could never run on this
     * cluster is rejected now; one that merely cannot run yet is accepted and waits.
     */
    public ControlResult<Integer> submit(ClusterView state, JobRequest request, long now) {
        return submit(state, request, now, false);
    }

    /** slurm.conf's {@code Licenses} as {@code scontrol reconfigure} read them again. */
    public void useLicenses(Licenses configured) {
        this.licenses = java.util.Objects.requireNonNull(configured, "configured is null");
    }

    /** AccountingStorageEnforce and the associations it checks (reservations' Accounts= too). */
    public PolicyView limits() {
        return limits;
    }

    /** @param allocation salloc/srun: no batch script, the job only holds its resources */
    public ControlResult<Integer> submit(ClusterView state, JobRequest request, long now, boolean allocation) {
        return submit(state, request, now, allocation, false);
    }

    /** @param willRun {@code --test-only}: a job over its partition's limits could not start */
    private ControlResult<Integer> submit(
            ClusterView state, JobRequest request, long now, boolean allocation, boolean willRun) {
        JobText.check(request);
        Partition partition = SubmitChecks.partition(state, request.partition());
        if (!partition.acceptsJobs()) {
            throw new SlurmException(ErrorCode.PARTITION_NOT_AVAIL);
        }
        if (!allocation && request.launch().script().isEmpty()) {
            throw new SlurmException(ErrorCode.JOB_SCRIPT_MISSING);
        }
        if (allocation && !request.launch().script().isEmpty()) {
            throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "an allocation has no batch script");
        }
        SubmitChecks.sequencing(state, request, maxArraySize);
        SubmitChecks.features(state, request);
        SubmitChecks.licenses(licenses, request);
        request = Admission.resolve(limits, request, partition.name(), state.jobs());
        request = Admission.capNodes(limits, request, partition.name());
        DenyOnLimit.check(limits, request, partition.name(), largestMemoryMb(state, partition));
        request =
                request.withWckey(WckeyAdmission.resolve(limits, request.owner().userName(), request.wckey()));
        Reservation reservation = SubmitChecks.reservation(state, request, now, limits.policy());
        long limit = request.timeLimitMinutes();
        if (limit == JobRequest.TIME_NOT_SET) {
            limit = partition.limits().defaultTimeMinutes() != JobRequest.TIME_NOT_SET
                    ? partition.limits().defaultTimeMinutes()
                    : partition.limits().maxTimeMinutes();
        }
        PerNodeFit.check(state, partition, request);
        List<NodeCapacity> idle = fits.idle(state, partition);
        JobReason overLimit = PartitionFit.overLimit(request, partition, n -> {
            Node node = state.node(n);
            return node == null ? 0 : node.hardware().cpus();
        });
        if (overLimit != null && defaults.enforcePartLimits()) {
            throw new SlurmException(PartitionFit.refusal(overLimit));
        }
        if (overLimit != null && willRun) {
            throw new SlurmException(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
        // Over the partition's limits the job waits for them to change; otherwise it must fit
        // the partition's nodes as configured.
        PlacementRequest placement = Scheduler.placementRequest(request, partition, defaults);
        // Only whether it could ever fit: where it would go now is the pass's to find.
        if (overLimit == null) {
            PlacementResult.Rejected never = fits.rejection(state, partition, placement);
            if (never != null) {
                throw new SlurmException(never.error());
            }
            SubmitChecks.reservationFit(reservation, now, idle, placement);
        }
        int jobId = state.nextJobId();
        List<StateRecord> records = new ArrayList<>();
        records.add(new StateRecord.JobSubmitted(jobId, request, partition.name(), limit, now));
        records.addAll(correlatedSplits(jobId, request, now));
        return ControlResult.of(records, List.of(), jobId);
    }

    /**
     * An aftercorr array's tasks each on a record of their own, as real Slurm 22.05 splits them
     * once it has tested the dependency (compat 295: squeue lists them one a line, scontrol
     * show job J shows each, sacct has J_1 for the one cancelled pending): each waits, runs or
     * is refused on its own partner task. The last keeps the array's id, as when tasks start.
     */
    private static List<StateRecord> correlatedSplits(int jobId, JobRequest request, long now) {
        ArrayRequest array = request.sequencing().array();
        if (!array.isArray() || !request.sequencing().dependency().correlates()) {
            return List.of();
        }
        List<Integer> tasks = array.partOf(jobId).pendingTasks().ids();
        List<StateRecord> out = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            int newId = i == tasks.size() - 1 ? jobId : jobId + 1 + i;
            out.add(new StateRecord.ArrayTaskSplit(jobId, tasks.get(i), newId, now));
        }
        return out;
    }

    /**
     * A submission as the caller meets it: the job's id, or why it was refused. Slurm 22.05
     * makes the job record (and so uses up its id) before it checks the dependency and tries the
     * nodes: a job refused for those leaves a gap in the ids (observed: {@code -d afterok:<bad>},
     * {@code --mem} over every node and a reservation the user may not use each use one up), one refused for its partition,
     * account or options does not.
     */
    public ControlResult<Submission> submission(ClusterView state, JobRequest request, long now, boolean allocation) {
        int id = state.nextJobId();
        try {
            ControlResult<Integer> accepted = submit(state, request, now, allocation);
            return new ControlResult<>(
                    accepted.records(),
                    accepted.softChanges(),
                    accepted.effects(),
                    new Submission(accepted.response(), null));
        } catch (SlurmException e) {
            List<SoftChange> soft = usesJobId(e.code()) ? List.of(new SoftChange.JobIdUsed(id)) : List.of();
            return new ControlResult<>(List.of(), soft, List.of(), new Submission(0, e));
        }
    }

    private static boolean usesJobId(ErrorCode refusal) {
        return refusal == ErrorCode.DEPENDENCY
                || refusal == ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE
                || refusal == ErrorCode.RESERVATION_ACCESS
                || refusal == ErrorCode.RESERVATION_INVALID;
    }

    /** A submission's outcome: the job's id, or the refusal to answer with. */
    public record Submission(int jobId, SlurmException refusal) {
        /** The id, or the refusal thrown for the caller. */
        public int orThrow() {
            if (refusal != null) {
                throw refusal;
            }
            return jobId;
        }
    }

    /**
     * {@code sbatch --test-only}: the submission's checks without a submission. As in Slurm
     * 22.05 a job id is used up, also when the request cannot run here, but not when the
     * partition is wrong (Slurm rejects that before it makes a job record).
     */
    public ControlResult<TestOnly> testOnly(ClusterView state, JobRequest request, long now) {
        int id = state.nextJobId();
        try {
            ControlResult<Integer> accepted = submit(state, request, now, false, true);
            StateRecord.JobSubmitted job =
                    (StateRecord.JobSubmitted) accepted.records().get(0);
            return new ControlResult<>(
                    List.of(), List.of(new SoftChange.JobIdUsed(id)), List.of(), new TestOnly(job, null));
        } catch (SlurmException e) {
            boolean partition = e.code() == ErrorCode.INVALID_PARTITION_NAME
                    || e.code() == ErrorCode.PARTITION_NOT_AVAIL
                    || e.code() == ErrorCode.DEFAULT_PARTITION_NOT_SET;
            List<SoftChange> soft = partition ? List.of() : List.of(new SoftChange.JobIdUsed(id));
            return new ControlResult<>(List.of(), soft, List.of(), new TestOnly(null, e));
        }
    }

    /** The job {@code --test-only} would have submitted, or why it would have been refused. */
    public record TestOnly(StateRecord.JobSubmitted job, SlurmException refusal) {}

    /** Which of a running job's processes {@code scancel --signal} reaches. */
    public enum SignalScope {
        /** The default: the job's steps, not the batch shell nor its other children. */
        STEPS,
        /** {@code -b/--batch}: the batch shell alone. */
        BATCH,
        /** {@code -f/--full}: every process of the job, the batch shell's children included. */
        FULL;

        public static SignalScope of(boolean batch, boolean full) {
            return batch ? BATCH : full ? FULL : STEPS;
        }
    }

    /** As {@link #signal(ClusterView, Caller, String, int, boolean, SignalScope, long)}, {@code -b} or not. */
    public ControlResult<Void> signal(
            ClusterView state, Caller caller, String target, int signal, boolean cancel, boolean batchOnly, long now) {
        return signal(state, caller, target, signal, cancel, SignalScope.of(batchOnly, false), now);
    }

    /**
     * Cancels or signals the jobs a user named ({@code 123}, {@code 123_4}, {@code 123_[1-3]}).
     * Cancelling a pending job ends it at once; a running one ends as CANCELLED and its nodes
     * are told to kill it. A pending array task leaves its array's record without a record of
     * its own, as in Slurm, unless it is the record's last: then the record is cancelled.
     * SIGKILL to a whole job is a cancel, as in Slurm (scancel's default is that very signal):
     * the job ends CANCELLED, not killed by a signal of its own.
     */
    public ControlResult<Void> signal(
            ClusterView state, Caller caller, String target, int signal, boolean cancel, SignalScope scope, long now) {
        int dot = target.indexOf('.');
        if (dot >= 0) {
            return StepCommands.signal(
                    state, caller, target.substring(0, dot), target.substring(dot + 1), signal, cancel);
        }
        boolean ending = cancel || (signal == SIGKILL && scope != SignalScope.BATCH);
        List<JobTargets.Target> targets = JobTargets.resolve(state, target);
        List<StateRecord> records = new ArrayList<>();
        List<SoftChange> soft = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        TaskSplits splits = new TaskSplits(state.nextJobId());
        int requid = caller.uid();
        for (JobTargets.Target t : targets) {
            Job job = t.job();
            if (!caller.isOperator() && caller.uid() != job.request().owner().uid()) {
                throw new SlurmException(ErrorCode.ACCESS_DENIED);
            }
            if (job.status().state().isFinished()) {
                if (targets.size() == 1) {
                    throw new SlurmException(ErrorCode.ALREADY_DONE);
                }
                continue;
            }
            if (job.isPending()) {
                if (!ending) {
                    throw new SlurmException(ErrorCode.JOB_PENDING);
                }
                if (t.pendingTask() >= 0 && splits.drops(job, t.pendingTask())) {
                    // As Slurm 22.05: a task cancelled before it started just leaves its
                    // array's record, with no record (and no job id) of its own.
                    records.add(new StateRecord.ArrayTaskSplit(job.id(), t.pendingTask(), 0, now));
                    continue;
                }
                JobEvent.Cancel event = new JobEvent.Cancel(requid, state.pendingReason(job));
                Transition cancelled = t.pendingTask() >= 0
                        ? JobLifecycle.applyToTask(job, t.pendingTask(), splits, event, now)
                        : JobLifecycle.apply(job, event, now);
                records.addAll(cancelled.records());
                continue;
            }
            if (ending) {
                Transition cancelled = JobLifecycle.apply(job, JobEvent.Cancel.by(requid), now);
                records.addAll(cancelled.records());
                effects.addAll(cancelled.effects());
                if (!job.request().launch().script().isEmpty()) {
                    // Its batch host reports when the script's processes are gone; until then the
                    // job shows COMPLETING, as in Slurm.
                    soft.add(new SoftChange.JobCompleting(
                            job.id(), job.allocation().batchHost(), true));
                }
            } else {
                effects.add(new Effect.Signal(
                        job.id(),
                        job.allocation().nodeNames(),
                        signal,
                        scope == SignalScope.BATCH,
                        scope == SignalScope.STEPS));
            }
        }
        return new ControlResult<>(records, soft, effects, null);
    }

    /**
     * {@code scontrol hold|uhold|release}: holds only pending jobs; users release only their own
     * holds, operators any.
     */
    public ControlResult<Void> hold(ClusterView state, Caller caller, String target, Job.Hold hold, long now) {
        List<StateRecord> records = new ArrayList<>();
        TaskSplits splits = new TaskSplits(state.nextJobId());
        for (JobTargets.Target t : ownTargets(state, caller, target)) {
            Job job = t.job();
            // As Slurm 22.05: a finished job is an error, a running one is left as it is.
            if (job.status().state().isFinished()) {
                throw new SlurmException(ErrorCode.JOB_FINISHED);
            }
            if (!job.isPending()) {
                continue;
            }
            if (hold == Job.Hold.NONE && job.terms().hold() == Job.Hold.ADMIN && !caller.isOperator()) {
                throw new SlurmException(ErrorCode.ACCESS_DENIED);
            }
            // A user's hold request is always a user hold, whatever was asked.
            Job.Hold granted = hold == Job.Hold.ADMIN && !caller.isOperator() ? Job.Hold.USER : hold;
            JobEvent.Hold event = new JobEvent.Hold(granted);
            // One pending task held or released alone is split off its array first, as in
            // Slurm: the array's other tasks keep their hold.
            records.addAll(
                    t.pendingTask() >= 0
                            ? JobLifecycle.applyToTask(job, t.pendingTask(), splits, event, now)
                                    .records()
                            : JobLifecycle.apply(job, event, now).records());
        }
        return ControlResult.of(records, List.of(), null);
    }

    /** The records a name stands for (a pending task with its array's record), each one the caller may change. */
    private static List<JobTargets.Target> ownTargets(ClusterView state, Caller caller, String target) {
        List<JobTargets.Target> out = JobTargets.resolve(state, target);
        for (JobTargets.Target t : out) {
            // Slurm 22.05 refuses updates and holds of another's job with "Invalid user id".
            if (!caller.mayActOnJobOf(t.job().request().owner().uid())) {
                throw new SlurmException(ErrorCode.USER_ID_MISSING);
            }
        }
        return out;
    }

    /** What a job without a memory request counts per node under DenyOnLimit (compat 281). */
    private static long largestMemoryMb(ClusterView state, Partition partition) {
        long most = 0;
        for (String name : partition.nodes()) {
            Node node = state.node(name);
            if (node != null) {
                most = Math.max(most, node.hardware().realMemoryMb());
            }
        }
        return most;
    }
}
