package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import java.util.List;

/**
 * Something that happens to one job and that {@link JobLifecycle#apply} turns into records and
 * effects: the columns of the job lifecycle table (docs/architecture.md). Who may cause it and
 * with which Slurm error it is refused is the handlers' business ({@code ctld.control}); what it
 * does to the job is decided here alone.
 */
public sealed interface JobEvent {
    /** The scheduler placed it (an array task once split off its record). */
    record Start(Allocation allocation, String partition, long timeLimitMinutes) implements JobEvent {
        public Start {
            requireNonNull(allocation, "allocation is null");
            requireNonNull(partition, "partition is null");
        }
    }

    /**
     * {@code scancel}.
     *
     * @param requid the uid that asked ({@link StateRecord.JobEnded#NOBODY} when unknown)
     * @param waiting why the job waited, if it was pending: Slurm keeps that reason on a job
     *     cancelled before it ran ({@code CANCELLED Resources}, {@code CANCELLED JobHeldUser})
     */
    record Cancel(int requid, JobReason waiting) implements JobEvent {
        public Cancel {
            requireNonNull(waiting, "waiting is null");
        }

        /** Cancelled by {@code requid}, with no waiting reason to keep. */
        public static Cancel by(int requid) {
            return new Cancel(requid, JobReason.NONE);
        }

        /** Cancelled by no one known ({@link StateRecord.JobEnded#NOBODY}). */
        public static Cancel byNobody() {
            return by(StateRecord.JobEnded.NOBODY);
        }
    }

    /** Its dependency can never be met and it asked to be killed then ({@code --kill-on-invalid-dep}). */
    record DependencyNeverSatisfied() implements JobEvent {}

    /** Its time limit can no longer end before its {@code --deadline} ({@link JobTimes#missesDeadline}). */
    record DeadlineMissed() implements JobEvent {}

    /**
     * Its batch host reported the end of the script.
     *
     * @param endState what the node decided (TIMEOUT, OUT_OF_MEMORY, ...), or null: by exit status
     */
    record BatchEnded(JobState endState, int exitStatus) implements JobEvent {}

    /** The node's Prolog failed: the job never ran, an operator should look at it. */
    record PrologFailed() implements JobEvent {}

    /** The command that held an allocation (salloc, a lone srun) ended with {@code status}. */
    record AllocationEnded(int status) implements JobEvent {}

    /** An allocation ran into its time limit (no batch script whose node would enforce it). */
    record TimeLimitReached() implements JobEvent {}

    /** A node it runs on went DOWN (an operator, or silence past SlurmdTimeout). */
    record NodeFailed() implements JobEvent {}

    /** Its batch script could not be launched on its node after every try. */
    record LaunchFailed() implements JobEvent {}

    /**
     * {@code scontrol requeue} or, {@code held}, {@code requeuehold}.
     *
     * @param byOperator whose hold a requeuehold puts on it (JobHeldAdmin, else JobHeldUser)
     * @param holdBackSeconds how long the job then waits (BeginTime) before it may start again
     */
    record Requeue(boolean held, boolean byOperator, long holdBackSeconds) implements JobEvent {}

    /**
     * A job of higher priority needs its resources ({@code PreemptType}): it ends PREEMPTED, or
     * with {@code requeue} pends again, held back {@code holdBackSeconds} as a requeued job is.
     */
    record Preempt(boolean requeue, long holdBackSeconds) implements JobEvent {}

    /**
     * Preempted with a {@code GraceTime} ({@code CANCEL} or {@code REQUEUE} mode): it is sent
     * SIGCONT and SIGTERM now and runs on for {@code graceSeconds}, then is preempted as
     * {@link Preempt} with {@code requeue} and {@code holdBackSeconds}.
     */
    record PreemptGrace(long graceSeconds, boolean requeue, long holdBackSeconds) implements JobEvent {}

    /**
     * {@code scontrol suspend}, or with {@code byPreemption} a preemptor's start
     * ({@code PreemptMode=SUSPEND}): the preemptor takes the job's resources until it resumes.
     */
    record Suspend(boolean byPreemption) implements JobEvent {
        /** {@code scontrol suspend}. */
        public static Suspend byCommand() {
            return new Suspend(false);
        }
    }

    /** {@code scontrol resume}, or a job suspended by preemption whose resources are free again. */
    record Resume() implements JobEvent {}

    /** {@code scontrol hold/uhold/release}, the hold already decided by who asked. */
    record Hold(Job.Hold hold) implements JobEvent {
        public Hold {
            requireNonNull(hold, "hold is null");
        }
    }

    /** {@code scontrol update job}: the changed fields. */
    record Update(List<JobChange> changes) implements JobEvent {
        public Update {
            changes = List.copyOf(changes);
        }
    }

    /** srun started a step in it (journaled for accounting; steps themselves are soft state). */
    record StepStarted(JobStep step) implements JobEvent {
        public StepStarted {
            requireNonNull(step, "step is null");
        }
    }

    /** One of its steps ended, or is recorded as ended with the run it belonged to. */
    record StepEnded(JobStep step) implements JobEvent {
        public StepEnded {
            requireNonNull(step, "step is null");
        }
    }

    /** MinJobAge passed since it ended: the controller forgets it (accounting keeps it). */
    record Purge() implements JobEvent {}
}
