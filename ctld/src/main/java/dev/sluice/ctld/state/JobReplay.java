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
import java.util.List;

/**
 * What a journaled record does to a job: the replay half of the job lifecycle. Kept apart from
 * {@link JobLifecycle}, which decides records, because replay only applies them; it refuses
 * any record that {@link JobLifecycle#next} (or, for a snapshot, {@link JobLifecycle#restoring})
 * does not allow from where the job is, so both halves answer to one table. Pure.
 */
public final class JobReplay {
    private JobReplay() {}

    /**
     * The job after a journaled record.
     *
     * @throws IllegalStateException when the record is not a legal move from the job's phase:
     *     the journal is corrupt (decisions never make such a record)
     */
    public static Job replay(Job job, StateRecord record) {
        return replay(job, record, false);
    }

    /** As {@link #replay}, for a snapshot's records, which may also summarise ({@link JobLifecycle#restoring}). */
    public static Job restore(Job job, StateRecord record) {
        return replay(job, record, true);
    }

    private static Job replay(Job job, StateRecord record, boolean snapshot) {
        JobPhase from = JobPhase.of(job.status().state());
        JobMove move = JobMove.of(record);
        JobPhase to = snapshot ? JobLifecycle.restoring(from, move) : JobLifecycle.next(from, move);
        if (to == null) {
            throw JobLifecycle.illegal(job, from, record);
        }
        return switch (record) {
            case JobStarted r -> {
                if (!job.array().pendingTasks().isEmpty()) {
                    throw new IllegalStateException(
                            "journal starts job " + job.id() + " that still stands for pending array tasks");
                }
                yield job.started(r.allocation(), r.time(), r.timeLimitMinutes(), r.partition());
            }
            case JobEnded r -> {
                Job ended = job.ended(r.state(), r.exitStatus(), r.time(), r.reason(), r.prologFailedNode());
                // Slurm 22.05 gives a job it ends DEADLINE before it ran its end as its start
                // too (scontrol's StartTime, compat 304).
                yield r.state() == JobState.DEADLINE && job.run().startTime() <= 0
                        ? ended.with(b -> b.startTime(r.time()))
                        : ended;
            }
            // The end as it was, but for the status the batch host reported.
            case StateRecord.JobEndReported r ->
                job.ended(
                        job.status().state(),
                        r.exitStatus(),
                        job.run().endTime(),
                        job.status().reason());
            // Submitted anew: its next run is another accounting record. Its key is the submit
            // time, so a requeue within the second of the submission counts a second later and
            // the runs' records stay apart. A snapshot's requeues only count restarts: its
            // submission carries the submit time already.
            case JobRequeued r ->
                job.requeued(
                        snapshot
                                ? job.run().submitTime()
                                : Math.max(r.time(), job.run().submitTime() + 1),
                        r.eligibleTime(),
                        r.held(),
                        r.launchFailed());
            case JobSuspendChanged r -> job.suspended(r.suspended(), r.preSuspendSeconds(), r.time(), r.byPreemption());
            case JobUpdated r -> JobUpdates.apply(job, r.changes());
            case JobHoldChanged r -> {
                // Released: the requeuehold reason goes with the hold, as in Slurm.
                boolean clears = r.hold() == Job.Hold.NONE && job.requeuedHeld();
                // Released, the job's priority is computed again: an operator's fixed one goes.
                boolean released = r.hold() == Job.Hold.NONE && job.terms().hold() != Job.Hold.NONE;
                long priority = released ? 0 : job.terms().adminPriority();
                // Released from a deleted reservation's hold, it runs without the reservation.
                Job unreserved = job.terms().hold() == Job.Hold.RESV_DEL && r.hold() != Job.Hold.RESV_DEL
                        ? JobUpdates.apply(job, List.of(new JobChange.ReservationName("")))
                        : job;
                yield unreserved.with(b -> b.hold(r.hold())
                        .reason(clears ? JobReason.NONE : job.status().reason())
                        .adminPriority(priority));
            }
            // The job runs on; ClusterState marks its run with the deadline.
            case StateRecord.JobPreemptGraceStarted r -> job;
            // The table allowed it; ClusterState forgets the job.
            case JobsPurged r -> job;
            default -> throw new IllegalArgumentException("not a move of one job: " + record);
        };
    }

    /**
     * The records an {@link ArrayTaskSplit} leaves: the array record without the task, and the
     * task's own record ({@code newJobId} equal to the record's id: the record becomes its last
     * task; 0: the task just goes, cancelled before it started, or in a snapshot its record was
     * purged long ago).
     */
    public static List<Job> split(Job record, ArrayTaskSplit split, boolean snapshot) {
        JobPhase from = JobPhase.of(record.status().state());
        if ((snapshot ? JobLifecycle.restoring(from, JobMove.SPLIT) : JobLifecycle.next(from, JobMove.SPLIT)) == null) {
            throw JobLifecycle.illegal(record, from, split);
        }
        ArrayPart part = record.array();
        if (!part.pendingTasks().contains(split.taskId())) {
            throw new IllegalStateException("journal splits task " + split.taskId() + " off job " + record.id()
                    + ", which does not stand for it");
        }
        if (split.newJobId() == 0) {
            return List.of(record.with(b -> b.array(part.without(split.taskId()))));
        }
        Job task = JobLifecycle.splitOff(record, split.taskId(), split.newJobId());
        if (split.newJobId() == record.id()) {
            // Only the record's last pending task keeps the record (TaskSplits).
            if (part.pendingTasks().size() != 1) {
                throw new IllegalStateException("journal gives job " + record.id() + " to task " + split.taskId()
                        + " while it stands for other pending tasks");
            }
            return List.of(task);
        }
        return List.of(record.with(b -> b.array(part.without(split.taskId()))), task);
    }
}
