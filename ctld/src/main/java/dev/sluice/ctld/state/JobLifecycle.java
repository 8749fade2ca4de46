package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.StateRecord.ArrayTaskSplit;
import dev.sluice.ctld.state.StateRecord.JobEnded;
import dev.sluice.ctld.state.StateRecord.JobHoldChanged;
import dev.sluice.ctld.state.StateRecord.JobRequeued;
import dev.sluice.ctld.state.StateRecord.JobStarted;
import dev.sluice.ctld.state.StateRecord.JobSuspendChanged;
import dev.sluice.ctld.state.StateRecord.JobUpdated;
import dev.sluice.ctld.state.StateRecord.JobsPurged;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job lifecycle, the one owner of every decision about a job's state: which records and
 * effects an event makes ({@link #apply}) and which moves a record may make from where the job
 * is ({@link #next}); what a record does to the job on replay is {@link JobReplay}'s, which
 * checks the same table, so a handler cannot decide a move replay would refuse, and a journal
 * holding one is corrupt. Pure. The tables are in docs/architecture.md, generated from this
 * class by its test.
 */
public final class JobLifecycle {
    private static final int SIGTERM = 15;
    private static final int SIGCONT = 18;

    private JobLifecycle() {}

    /**
     * The move table: the phase a job in {@code from} reaches by {@code move}, or null when the
     * move is illegal there. PURGE leads to FINISHED: the job is then forgotten.
     */
    public static JobPhase next(JobPhase from, JobMove move) {
        return switch (move) {
            case SPLIT, HOLD -> from == JobPhase.PENDING ? JobPhase.PENDING : null;
            // A running job's name, comment and time limit may change too; its phase does not.
            case UPDATE -> from != JobPhase.FINISHED ? from : null;
            case START -> from == JobPhase.PENDING ? JobPhase.RUNNING : null;
            case SUSPEND -> from == JobPhase.RUNNING ? JobPhase.SUSPENDED : null;
            case RESUME -> from == JobPhase.SUSPENDED ? JobPhase.RUNNING : null;
            case GRACE -> from == JobPhase.RUNNING ? JobPhase.RUNNING : null;
            case CANCEL -> from != JobPhase.FINISHED ? JobPhase.FINISHED : null;
            // Slurm 22.05 tests the deadline of pending jobs only.
            case EXPIRE -> from == JobPhase.PENDING ? JobPhase.FINISHED : null;
            case END -> from == JobPhase.RUNNING || from == JobPhase.SUSPENDED ? JobPhase.FINISHED : null;
            case END_REPORTED -> from == JobPhase.FINISHED ? JobPhase.FINISHED : null;
            case REQUEUE -> from != JobPhase.PENDING ? JobPhase.PENDING : null;
            case PURGE -> from == JobPhase.FINISHED ? JobPhase.FINISHED : null;
        };
    }

    /**
     * Moves a snapshot may also make. A snapshot is the state as records, not its history: it
     * gives a job's restart count as requeues of the job just re-created (pending), and a pause
     * that is over as a resume of the job just restarted (running).
     */
    public static JobPhase restoring(JobPhase from, JobMove move) {
        JobPhase to = next(from, move);
        if (to != null) {
            return to;
        }
        if (move == JobMove.REQUEUE && from == JobPhase.PENDING) {
            return JobPhase.PENDING;
        }
        if (move == JobMove.RESUME && from == JobPhase.RUNNING) {
            return JobPhase.RUNNING;
        }
        return null;
    }

    /**
     * What {@code event} does to {@code job} at {@code now}.
     *
     * @throws IllegalStateException when the event is not a legal move from where the job is:
     *     the caller (a handler) should have refused it with Slurm's error first
     */
    public static Transition apply(Job job, JobEvent event, long now) {
        JobPhase from = JobPhase.of(job.status().state());
        if (!happensIn(event).contains(from)) {
            throw new IllegalStateException(
                    "job " + job.id() + " is " + job.status().state() + " (" + from + "): "
                            + event.getClass().getSimpleName() + " cannot happen to it");
        }
        int id = job.id();
        Transition t = switch (event) {
            case JobEvent.Start s ->
                Transition.of(
                        new JobStarted(id, s.allocation(), s.partition(), s.timeLimitMinutes(), now),
                        new Effect.LaunchBatch(id));
            case JobEvent.Cancel c ->
                from == JobPhase.PENDING
                        ? Transition.of(new JobEnded(id, JobState.CANCELLED, 0, c.waiting(), now, c.requid()))
                        : Transition.of(
                                new JobEnded(id, JobState.CANCELLED, 15, JobReason.NONE, now, c.requid()),
                                terminate(job, JobState.CANCELLED));
            case JobEvent.DependencyNeverSatisfied d ->
                Transition.of(
                        JobEnded.unrequested(id, JobState.CANCELLED, 0, JobReason.DEPENDENCY_NEVER_SATISFIED, now));
            // Slurm 22.05 sets the job's exit_code to 1 (compat 304).
            case JobEvent.DeadlineMissed d ->
                Transition.of(JobEnded.unrequested(id, JobState.DEADLINE, 1, JobReason.DEADLINE, now));
            case JobEvent.BatchEnded e -> {
                JobState end = e.endState() != null ? e.endState() : byStatus(e.exitStatus());
                // A script killed by a signal Slurm did not send: FAILED, as a failed launch
                // (Slurm's job_complete gives WIFSIGNALED statuses FAIL_LAUNCH).
                JobReason reason = e.endState() == null && diedOfSignal(e.exitStatus())
                        ? JobReason.JOB_LAUNCH_FAILURE
                        : endReason(end);
                // The batch host ends its own part; the job's other nodes are told.
                boolean others = job.allocation().nodes().size() > 1;
                yield ended(job, end, e.exitStatus(), reason, others, now);
            }
            case JobEvent.PrologFailed p -> {
                List<Effect> kill =
                        job.allocation().nodes().size() > 1 ? List.of(terminate(job, JobState.NODE_FAIL)) : List.of();
                yield new Transition(
                        List.of(JobRequeued.launchFailed(id, now), new JobHoldChanged(id, Job.Hold.ADMIN, now)), kill);
            }
            case JobEvent.AllocationEnded a -> {
                if (from == JobPhase.PENDING) {
                    // The user gave up waiting.
                    yield apply(job, JobEvent.Cancel.by(job.request().owner().uid()), now);
                }
                JobState end = byStatus(a.status());
                yield ended(job, end, a.status(), endReason(end), true, now);
            }
            case JobEvent.TimeLimitReached x ->
                ended(job, JobState.TIMEOUT, 15, endReason(JobState.TIMEOUT), true, now);
            case JobEvent.NodeFailed n ->
                requeueOrNodeFail(job, now)
                        .then(new Transition(List.of(), List.of(terminate(job, JobState.NODE_FAIL))));
            // Never launched: nothing to kill.
            case JobEvent.LaunchFailed l -> requeueOrNodeFail(job, now);
            case JobEvent.Requeue r -> {
                List<StateRecord> records = new ArrayList<>();
                records.add(JobRequeued.heldBack(id, r.held(), now, now + r.holdBackSeconds()));
                if (r.held()) {
                    records.add(new JobHoldChanged(id, r.byOperator() ? Job.Hold.ADMIN : Job.Hold.USER, now));
                }
                // The old run's end report names the old restart count, so it cannot end the new run.
                List<Effect> kill = job.isRunning() ? List.of(terminate(job, JobState.CANCELLED)) : List.of();
                yield new Transition(records, kill);
            }
            case JobEvent.Preempt p ->
                p.requeue()
                        ? Transition.of(
                                new JobRequeued(id, false, now, now + p.holdBackSeconds(), true),
                                terminate(job, JobState.PREEMPTED))
                        // ExitCode 0:0 until the batch host says how the script died (compat 250):
                        // the record also marks the job COMPLETING there (ClusterState).
                        : Transition.of(
                                JobEnded.unrequested(id, JobState.PREEMPTED, 0, JobReason.NONE, now),
                                terminate(job, JobState.PREEMPTED));
            case JobEvent.PreemptGrace g -> {
                // SIGCONT with the SIGTERM, as Slurm sends both, to the job's steps: not to its batch
                // shell, which hears nothing until the deadline (compat 242). PreemptKills ends it then.
                List<String> nodes = job.allocation().nodeNames();
                yield new Transition(
                        List.of(new StateRecord.JobPreemptGraceStarted(
                                id, now + g.graceSeconds(), g.requeue(), g.holdBackSeconds(), now)),
                        List.of(
                                new Effect.Signal(id, nodes, SIGCONT, false, true),
                                new Effect.Signal(id, nodes, SIGTERM, false, true)));
            }
            case JobEvent.Suspend s -> suspend(job, true, s.byPreemption(), now);
            case JobEvent.Resume r -> suspend(job, false, job.suspension().byPreemption(), now);
            case JobEvent.Hold h -> Transition.of(new JobHoldChanged(id, h.hold(), now));
            case JobEvent.Update u -> Transition.of(new JobUpdated(id, u.changes(), now));
            case JobEvent.Purge p -> Transition.of(new JobsPurged(List.of(id), now));
            case JobEvent.StepStarted s -> Transition.of(new StateRecord.StepRecorded(id, s.step(), now));
            case JobEvent.StepEnded s -> Transition.of(new StateRecord.StepRecorded(id, s.step(), now));
        };
        check(job, t.records());
        return t;
    }

    /**
     * The phases in which {@code event} can happen: the event table's filled cells. What it
     * then journals must be legal moves too ({@link #next}), which {@link #apply} checks.
     */
    public static Set<JobPhase> happensIn(JobEvent event) {
        return switch (event) {
            case JobEvent.Start e -> EnumSet.of(JobPhase.PENDING);
            case JobEvent.DependencyNeverSatisfied e -> EnumSet.of(JobPhase.PENDING);
            case JobEvent.DeadlineMissed e -> EnumSet.of(JobPhase.PENDING);
            case JobEvent.Hold e -> EnumSet.of(JobPhase.PENDING);
            case JobEvent.Update e -> EnumSet.of(JobPhase.PENDING, JobPhase.RUNNING, JobPhase.SUSPENDED);
            case JobEvent.Cancel e -> EnumSet.of(JobPhase.PENDING, JobPhase.RUNNING, JobPhase.SUSPENDED);
            case JobEvent.AllocationEnded e -> EnumSet.of(JobPhase.PENDING, JobPhase.RUNNING, JobPhase.SUSPENDED);
            case JobEvent.BatchEnded e -> EnumSet.of(JobPhase.RUNNING, JobPhase.SUSPENDED);
            case JobEvent.PrologFailed e -> EnumSet.of(JobPhase.RUNNING, JobPhase.SUSPENDED);
            case JobEvent.NodeFailed e -> EnumSet.of(JobPhase.RUNNING, JobPhase.SUSPENDED);
            case JobEvent.LaunchFailed e -> EnumSet.of(JobPhase.RUNNING, JobPhase.SUSPENDED);
            // A suspended job's clock stands still: it cannot run out of time.
            case JobEvent.TimeLimitReached e -> EnumSet.of(JobPhase.RUNNING);
            case JobEvent.Requeue e -> EnumSet.of(JobPhase.RUNNING, JobPhase.SUSPENDED, JobPhase.FINISHED);
            case JobEvent.Preempt e -> EnumSet.of(JobPhase.RUNNING);
            case JobEvent.PreemptGrace e -> EnumSet.of(JobPhase.RUNNING);
            case JobEvent.Suspend e -> EnumSet.of(JobPhase.RUNNING);
            case JobEvent.Resume e -> EnumSet.of(JobPhase.SUSPENDED);
            case JobEvent.Purge e -> EnumSet.of(JobPhase.FINISHED);
            case JobEvent.StepStarted e -> EnumSet.of(JobPhase.RUNNING, JobPhase.SUSPENDED);
            // Steps are swept after their run is over: the job may have ended or pend again.
            case JobEvent.StepEnded e -> EnumSet.allOf(JobPhase.class);
        };
    }

    /**
     * What {@code event} does to pending task {@code taskId} of the array record {@code record}:
     * the task is split off first, into the id {@code ids} gives it.
     */
    public static Transition applyToTask(Job record, int taskId, TaskSplits ids, JobEvent event, long now) {
        int taskJobId = ids.idFor(record, taskId);
        ArrayTaskSplit split = new ArrayTaskSplit(record.id(), taskId, taskJobId, now);
        check(record, List.of(split));
        return Transition.of(split).then(apply(splitOff(record, taskId, taskJobId), event, now));
    }

    /**
     * {@link JobEvent.Purge} of several jobs at once, in one record: purges come in batches
     * (MinJobAge passes for many jobs in the same second).
     */
    public static Transition purge(List<Job> jobs, long now) {
        List<Integer> ids = new ArrayList<>(jobs.size());
        for (Job job : jobs) {
            apply(job, new JobEvent.Purge(), now);
            ids.add(job.id());
        }
        return Transition.of(new JobsPurged(ids, now));
    }

    /**
     * Checks a whole decision against the move table before anything of it is applied, also
     * where it moves one job twice (a job on two failed nodes): every job record must be a legal
     * move from where the earlier records of the decision leave the job.
     *
     * @throws IllegalStateException naming the first illegal record
     */
    public static void checkDecision(ClusterView state, List<StateRecord> records) {
        Map<Integer, JobPhase> phases = new HashMap<>();
        for (StateRecord record : records) {
            switch (record) {
                case StateRecord.JobSubmitted r -> {
                    if (phases.containsKey(r.jobId()) || state.job(r.jobId()) != null) {
                        throw new IllegalStateException("job " + r.jobId() + " is submitted twice");
                    }
                    phases.put(r.jobId(), JobPhase.PENDING);
                }
                case ArrayTaskSplit r -> {
                    step(state, phases, r.jobId(), record);
                    if (r.newJobId() != 0) {
                        phases.put(r.newJobId(), JobPhase.PENDING);
                    }
                }
                case JobsPurged r -> r.jobIds().forEach(id -> step(state, phases, id, record));
                case JobStarted r -> step(state, phases, r.jobId(), record);
                case JobEnded r -> step(state, phases, r.jobId(), record);
                case JobRequeued r -> step(state, phases, r.jobId(), record);
                case JobSuspendChanged r -> step(state, phases, r.jobId(), record);
                case StateRecord.JobPreemptGraceStarted r -> step(state, phases, r.jobId(), record);
                case StateRecord.JobEndReported r -> step(state, phases, r.jobId(), record);
                case JobUpdated r -> step(state, phases, r.jobId(), record);
                case JobHoldChanged r -> step(state, phases, r.jobId(), record);
                default -> {}
            }
        }
    }

    private static void step(ClusterView state, Map<Integer, JobPhase> phases, int id, StateRecord record) {
        JobPhase from = phases.get(id);
        if (from == null) {
            Job job = state.job(id);
            if (job == null) {
                throw new IllegalStateException("job " + id + " is not known: " + record);
            }
            from = JobPhase.of(job.status().state());
        }
        JobPhase to = next(from, JobMove.of(record));
        if (to == null) {
            throw new IllegalStateException("job " + id + " is " + from + " by then: " + JobMove.of(record)
                    + " is not a move it can make (" + record.getClass().getSimpleName() + ")");
        }
        phases.put(id, to);
    }

    /**
     * The batch host's report of a job's end that came after the controller had ended it: for
     * a job ended PREEMPTED (without a grace, the controller ends it as it signals it), the
     * report's wait status becomes its exit status, as in Slurm 22.05 ({@code ExitCode=0:9}
     * for a script that trapped the SIGTERM and was killed {@code KillWait} later, 0:15 for
     * one the SIGTERM killed; compat 250), and it is no longer COMPLETING, also after a restart:
     * so the record is made even where the status is the one the job holds. Nothing for other
     * ended jobs (a cancelled job keeps 0:15).
     */
    public static Transition endReported(Job job, int exitStatus, long now) {
        if (job.status().state() != JobState.PREEMPTED) {
            return new Transition(List.of(), List.of());
        }
        return Transition.of(new StateRecord.JobEndReported(job.id(), exitStatus, now));
    }

    /** Slurm's reason for a job's end, which {@code scontrol show job} prints after the state. */
    public static JobReason endReason(JobState end) {
        return switch (end) {
            case FAILED -> JobReason.NON_ZERO_EXIT_CODE;
            case TIMEOUT -> JobReason.TIME_LIMIT;
            case OUT_OF_MEMORY -> JobReason.OUT_OF_MEMORY;
            default -> JobReason.NONE;
        };
    }

    /** Whether a wait status (as jobs record it) says the process was killed by a signal. */
    public static boolean diedOfSignal(int status) {
        return (status & 0x7f) != 0 && (status & 0xff00) == 0;
    }

    private static JobState byStatus(int status) {
        return status == 0 ? JobState.COMPLETED : JobState.FAILED;
    }

    private static Transition ended(Job job, JobState end, int status, JobReason reason, boolean kill, long now) {
        JobEnded record = JobEnded.unrequested(job.id(), end, status, reason, now);
        return kill ? Transition.of(record, terminate(job, end)) : Transition.of(record);
    }

    /** A node under a job failed: the job pends again if it may be requeued, else NODE_FAIL. */
    private static Transition requeueOrNodeFail(Job job, long now) {
        return Transition.of(
                job.request().requeue()
                        ? JobRequeued.at(job.id(), now)
                        : JobEnded.unrequested(job.id(), JobState.NODE_FAIL, 0, JobReason.NONE, now));
    }

    /**
     * A job just started on cores a running job of its gang holds: Slurm 22.05's gang scheduler
     * suspends it at once, and it waits for its turn (compat 211, 212). The record only: the node
     * daemon is told by the launch itself ({@code NodeDispatcher}), as a stop sent beside the
     * launch could reach the node before the job does.
     */
    public static Transition suspendedAtStart(int jobId, long now) {
        return Transition.of(new JobSuspendChanged(jobId, true, 0, now, true));
    }

    private static Transition suspend(Job job, boolean suspend, boolean byPreemption, long now) {
        return Transition.of(
                new JobSuspendChanged(job.id(), suspend, job.runSeconds(now), now, byPreemption),
                new Effect.Suspend(job.id(), job.allocation().nodeNames(), suspend));
    }

    private static Effect terminate(Job job, JobState reason) {
        return new Effect.Terminate(
                job.id(), job.allocation().nodeNames(), reason, job.run().restartCount());
    }

    /** Every record of a decision about {@code job}, in order, must be a legal move. */
    private static void check(Job job, List<StateRecord> records) {
        JobPhase phase = JobPhase.of(job.status().state());
        for (StateRecord record : records) {
            if (record instanceof StateRecord.StepRecorded) {
                // Not a move: the job's state stays as it is.
                continue;
            }
            JobPhase to = next(phase, JobMove.of(record));
            if (to == null) {
                throw illegal(job, phase, record);
            }
            phase = to;
        }
    }

    /** Task {@code taskId} of {@code record} as a record of its own, id {@code taskJobId}. */
    static Job splitOff(Job record, int taskId, int taskJobId) {
        ArrayPart part = record.array();
        return record.with(
                b -> b.id(taskJobId).array(new ArrayPart(part.arrayJobId(), taskId, TaskSet.EMPTY, part.throttle())));
    }

    static IllegalStateException illegal(Job job, JobPhase from, StateRecord record) {
        return new IllegalStateException(
                "job " + job.id() + " is " + job.status().state() + " (" + from + "): " + JobMove.of(record)
                        + " is not a move it can make (" + record.getClass().getSimpleName() + ")");
    }
}
