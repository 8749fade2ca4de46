package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import java.util.List;

/**
 * Every durable change to cluster state. Handlers decide records; {@link ClusterState#replay}
 * is the only mutator, so live operation and recovery share one code path. Records must stay
 * small, deterministic and serialisable: they are the journal.
 */
public sealed interface StateRecord {
    long time();

    record JobSubmitted(int jobId, JobRequest request, String partition, long timeLimitMinutes, long time)
            implements StateRecord {
        public JobSubmitted {
            requireNonNull(request, "request is null");
            requireNonNull(partition, "partition is null");
        }
    }

    record JobStarted(int jobId, Allocation allocation, String partition, long timeLimitMinutes, long time)
            implements StateRecord {
        public JobStarted {
            requireNonNull(allocation, "allocation is null");
            requireNonNull(partition, "partition is null");
        }
    }

    /**
     * The job ended.
     *
     * @param requid the uid that cancelled it (Slurm's requid, sacct's "CANCELLED by 0"), or
     *     {@link #NOBODY}
     * @param prologFailedNode the node whose allocation Prolog failed and so ended the job, an
     *     allocation (salloc is told which, as Slurm's is); empty for any other end
     */
    record JobEnded(
            int jobId, JobState state, int exitStatus, JobReason reason, long time, int requid, String prologFailedNode)
            implements StateRecord {
        public static final int NOBODY = -1;

        public JobEnded {
            requireNonNull(state, "state is null");
            requireNonNull(reason, "reason is null");
            requireNonNull(prologFailedNode, "prologFailedNode is null");
            if (!state.isFinished()) {
                throw new IllegalArgumentException("not a final state: " + state);
            }
        }

        /** An end no Prolog caused. */
        public JobEnded(int jobId, JobState state, int exitStatus, JobReason reason, long time, int requid) {
            this(jobId, state, exitStatus, reason, time, requid, "");
        }

        /** This end, caused by the allocation Prolog failing on {@code node}. */
        public JobEnded prologFailedOn(String node) {
            return new JobEnded(jobId, state, exitStatus, reason, time, requid, node);
        }

        /** An end nobody asked for. */
        public static JobEnded unrequested(int jobId, JobState state, int exitStatus, JobReason reason, long time) {
            return new JobEnded(jobId, state, exitStatus, reason, time, NOBODY);
        }
    }

    /**
     * Back to the queue: a node failed, a launch failed, or {@code scontrol requeue}.
     *
     * @param held {@code scontrol requeuehold}: pending with Slurm's "job requeued in held state"
     * @param eligibleTime when it may start again (Slurm holds a requeued job back a while)
     */
    /** @param preempted it was requeued by preemption: accounting ends its run PREEMPTED */
    record JobRequeued(int jobId, boolean held, long time, long eligibleTime, boolean preempted, boolean launchFailed)
            implements StateRecord {
        public JobRequeued(int jobId, boolean held, long time, long eligibleTime, boolean preempted) {
            this(jobId, held, time, eligibleTime, preempted, false);
        }

        /** Its node's Prolog failed: requeued at once, with Slurm's launch failure reason. */
        public static JobRequeued launchFailed(int jobId, long time) {
            return new JobRequeued(jobId, false, time, time, false, true);
        }

        /** Not by preemption, eligible again at {@code eligibleTime}. */
        public static JobRequeued heldBack(int jobId, boolean held, long time, long eligibleTime) {
            return new JobRequeued(jobId, held, time, eligibleTime, false);
        }

        /** Not by preemption, eligible again at once. */
        public static JobRequeued at(int jobId, boolean held, long time) {
            return new JobRequeued(jobId, held, time, time, false);
        }

        /** Not held, not by preemption, eligible again at once. */
        public static JobRequeued at(int jobId, long time) {
            return new JobRequeued(jobId, false, time, time, false);
        }
    }

    /**
     * {@code scontrol suspend} ({@code suspended}) or {@code scontrol resume}: the job keeps its
     * resources either way. Or, {@code byPreemption}, suspended for a preemptor
     * ({@code PreemptMode=SUSPEND}), which takes its resources until it resumes.
     *
     * @param preSuspendSeconds the run time accrued before this change, decided by the handler
     */
    record JobSuspendChanged(int jobId, boolean suspended, long preSuspendSeconds, long time, boolean byPreemption)
            implements StateRecord {
        /** {@code scontrol suspend} or {@code resume}. */
        public static JobSuspendChanged byCommand(int jobId, boolean suspended, long preSuspendSeconds, long time) {
            return new JobSuspendChanged(jobId, suspended, preSuspendSeconds, time, false);
        }
    }

    /**
     * Preempted with a {@code GraceTime}: the job was sent SIGTERM at {@code time} and ends
     * PREEMPTED at {@code deadline} unless it ends first; with {@code requeue} it is then
     * requeued, held back {@code holdBackSeconds}. Durable, as Slurm keeps a job's preemption
     * time in its state: a restarted controller does not signal it again.
     */
    record JobPreemptGraceStarted(int jobId, long deadline, boolean requeue, long holdBackSeconds, long time)
            implements StateRecord {}

    /**
     * The batch host reported the end of a job the controller had already ended PREEMPTED:
     * the job's exit status is now the report's (the signal that killed it, 0:9 for a script
     * that outlived its SIGTERM), as Slurm 22.05 takes a late report's status for
     * {@code scontrol show job}; its accounting record keeps the end it had.
     */
    record JobEndReported(int jobId, int exitStatus, long time) implements StateRecord {}

    /**
     * Task {@code taskId} of the array record {@code jobId} starts a life of its own as job
     * {@code newJobId} (equal to {@code jobId} when it is the record's last pending task), or,
     * with {@code newJobId} 0, just leaves the record (cancelled before it started).
     */
    record ArrayTaskSplit(int jobId, int taskId, int newJobId, long time) implements StateRecord {}

    /**
     * {@code PrologFlags=Alloc} (without {@code NoHold}): the job's current run waits for its
     * allocation Prolog on {@code nodes}, those of its nodes that have not reported it done (it
     * shows reason {@code Prolog}, as Slurm's slurmctld keeps WAIT_PROLOG, compat 262); none: the
     * wait is over. Durable because each node reports its Prolog once: a restarted controller
     * must wait for the nodes that have not reported, and for no other.
     */
    record PrologWait(int jobId, java.util.Set<String> nodes, long time) implements StateRecord {
        public PrologWait {
            nodes = java.util.Set.copyOf(nodes);
        }
    }

    /**
     * {@code scontrol update job}: the changed fields only, each at most once, kept in the
     * order of their keys (the journal holds them as a map).
     */
    record JobUpdated(int jobId, List<JobChange> changes, long time) implements StateRecord {
        public JobUpdated {
            changes = changes.stream()
                    .sorted(java.util.Comparator.comparing(JobChange::key))
                    .toList();
            if (changes.stream().map(JobChange::key).distinct().count() != changes.size()) {
                throw new IllegalArgumentException("a field changed twice: " + changes);
            }
        }
    }

    /** {@code scontrol hold/release/uhold}, or {@code sbatch -H} after submission. */
    record JobHoldChanged(int jobId, Job.Hold hold, long time) implements StateRecord {
        public JobHoldChanged {
            requireNonNull(hold, "hold is null");
        }
    }

    /**
     * A step of a running job started or ended. Changes nothing in the state (steps are soft
     * state, {@link JobSteps}); journaled so that accounting derives it exactly once.
     */
    record StepRecorded(int jobId, JobStep step, long time) implements StateRecord {
        public StepRecorded {
            requireNonNull(step, "step is null");
        }
    }

    record JobsPurged(List<Integer> jobIds, long time) implements StateRecord {
        public JobsPurged {
            jobIds = List.copyOf(jobIds);
        }
    }

    /**
     * A node daemon registered (or a snapshot keeps that it had).
     *
     * @param dynamic a dynamic node ({@code slurmd -Z}), which brings its own features and GRES
     */
    record NodeRegistered(
            String name,
            NodeEndpoint endpoint,
            NodeEquipment equipment,
            DaemonReport daemon,
            boolean dynamic,
            long time)
            implements StateRecord {
        public NodeRegistered {
            requireNonNull(name, "name is null");
            requireNonNull(endpoint, "endpoint is null");
            requireNonNull(equipment, "equipment is null");
            requireNonNull(daemon, "daemon is null");
        }
    }

    /**
     * {@code scontrol create NodeName=...}: a dynamic node that exists before (or without) a
     * daemon registering it. Its {@code equipment} carries the node line's {@code Feature=} and
     * {@code Gres=}, as a dynamic node's registration does.
     *
     * @param future {@code State=FUTURE} (or CLOUD): the node waits for its daemon to register
     */
    record NodeCreated(
            String name, NodeEndpoint endpoint, NodeEquipment equipment, int weight, boolean future, long time)
            implements StateRecord {
        public NodeCreated {
            requireNonNull(name, "name is null");
            requireNonNull(endpoint, "endpoint is null");
            requireNonNull(equipment, "equipment is null");
        }
    }

    /** {@code scontrol delete NodeName=...}: an idle dynamic node leaves the cluster. */
    record NodeDeleted(String name, long time) implements StateRecord {
        public NodeDeleted {
            requireNonNull(name, "name is null");
        }
    }

    record NodeStateChanged(String name, NodeTransition transition, String reason, String user, long time)
            implements StateRecord {
        public NodeStateChanged {
            requireNonNull(name, "name is null");
            requireNonNull(transition, "transition is null");
            requireNonNull(reason, "reason is null");
            requireNonNull(user, "user is null");
        }
    }

    /** {@code scontrol create} or {@code update reservation}: the reservation as it now is. */
    record ReservationSaved(Reservation reservation, long time) implements StateRecord {
        public ReservationSaved {
            requireNonNull(reservation, "reservation is null");
        }
    }

    /**
     * A controller started on this state at {@code time}. Its priority calculations count from
     * then, and what jobs run under it are charged follows that clock also after a restart.
     */
    record ControllerStarted(long time) implements StateRecord {}

    /** {@code scontrol delete reservation}. */
    record ReservationDeleted(String name, long time) implements StateRecord {
        public ReservationDeleted {
            requireNonNull(name, "name is null");
        }
    }
}
