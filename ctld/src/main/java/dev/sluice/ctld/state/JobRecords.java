package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.ClusterState.PreemptGrace;
import dev.sluice.ctld.state.StateRecord.ArrayTaskSplit;
import dev.sluice.ctld.state.StateRecord.JobEnded;
import dev.sluice.ctld.state.StateRecord.JobSubmitted;
import dev.sluice.ctld.state.StateRecord.JobsPurged;
import java.util.Set;
import java.util.function.Function;

/**
 * What a job record changes in the state it is replayed into: the job itself ({@link
 * JobReplay}), what it holds on its nodes, the queue's view of it and the marks of its run. The
 * one place a journalled job record is applied; {@link ClusterState} dispatches to it. An
 * unknown job is a broken invariant: the journal is corrupt.
 */
final class JobRecords {
    /** Soft: whether a job that ended still has processes being killed on a node ({@link ClusterState#completing}). */
    interface Completing {
        void mark(int jobId, String node, boolean stillKilling);
    }

    private final JobTable jobs;
    private final Function<String, Node> nodes;
    private final NodeUsage usage;
    private final QueueView queue;
    private final RunMarks runMarks;
    private final PrologWaits prologWaits;
    private final StepTable steps;
    private final Completing completing;

    JobRecords(
            JobTable jobs,
            Function<String, Node> nodes,
            NodeUsage usage,
            QueueView queue,
            RunMarks runMarks,
            PrologWaits prologWaits,
            StepTable steps,
            Completing completing) {
        this.jobs = jobs;
        this.nodes = nodes;
        this.usage = usage;
        this.queue = queue;
        this.runMarks = runMarks;
        this.prologWaits = prologWaits;
        this.steps = steps;
        this.completing = completing;
    }

    /** @return the least id a new job may have after it */
    int submitted(JobSubmitted r) {
        if (jobs.get(r.jobId()) != null) {
            throw new IllegalStateException("journal submits job " + r.jobId() + " twice");
        }
        jobs.put(Job.submitted(
                r.jobId(),
                r.request(),
                r.partition(),
                r.timeLimitMinutes(),
                r.time(),
                r.request().sequencing().array().partOf(r.jobId())));
        return r.jobId() + 1;
    }

    /** @return the least id a new job may have after it */
    int split(ArrayTaskSplit r, boolean snapshot) {
        for (Job j : JobReplay.split(requireJob(r.jobId()), r, snapshot)) {
            jobs.put(j);
        }
        return r.newJobId() + 1;
    }

    void started(StateRecord.JobStarted r, boolean snapshot) {
        occupy(r.jobId(), r, snapshot, busyTime(r.time(), snapshot));
        queue.noLongerPending(r.jobId());
        // A new run waits for no Prolog until a PrologWait says it does.
        prologWaits.waitOn(r.jobId(), r.time(), Set.of());
    }

    void prologWait(StateRecord.PrologWait r) {
        Job job = requireJob(r.jobId());
        if (job.isPending() || job.status().state().isFinished()) {
            throw new IllegalStateException("journal has job " + r.jobId() + " wait for its Prolog while "
                    + job.status().state());
        }
        prologWaits.waitOn(r.jobId(), job.run().startTime(), r.nodes());
    }

    void ended(JobEnded r, boolean snapshot) {
        occupy(r.jobId(), r, snapshot, busyTime(r.time(), snapshot));
        queue.noLongerPending(r.jobId());
        awaitEndReport(requireJob(r.jobId()), true);
    }

    void requeued(StateRecord.JobRequeued r, boolean snapshot) {
        occupy(r.jobId(), r, snapshot, busyTime(r.time(), snapshot));
    }

    /** A record that changes the job alone, not what it holds (an update, a hold). */
    void changed(int jobId, StateRecord r, boolean snapshot) {
        jobs.put(move(requireJob(jobId), r, snapshot));
    }

    void endReported(StateRecord.JobEndReported r, boolean snapshot) {
        jobs.put(move(requireJob(r.jobId()), r, snapshot));
        awaitEndReport(requireJob(r.jobId()), false);
    }

    void preemptGraceStarted(StateRecord.JobPreemptGraceStarted r, boolean snapshot) {
        Job job = move(requireJob(r.jobId()), r, snapshot);
        runMarks.preemptGraceStarted(
                r.jobId(), new PreemptGrace(job.run().startTime(), r.deadline(), r.requeue(), r.holdBackSeconds()));
    }

    // Suspended by preemption, the job lends its resources to its preemptor: they count on
    // the nodes as the preemptor's until it resumes. No node was let go of for good.
    void suspendChanged(StateRecord.JobSuspendChanged r, boolean snapshot) {
        occupy(r.jobId(), r, snapshot, 0);
    }

    void purged(JobsPurged r, boolean snapshot) {
        for (int id : r.jobIds()) {
            move(requireJob(id), r, snapshot);
        }
        r.jobIds().forEach(jobs::remove);
        runMarks.purged(r.jobIds());
        prologWaits.purged(r.jobIds());
        steps.purged(r.jobIds());
    }

    void stepRecorded(StateRecord.StepRecorded r) {
        steps.recorded(r.jobId(), r.step(), jobs.get(r.jobId()) != null);
    }

    /**
     * A batch job preempted by cancel is COMPLETING on its batch host, its resources still
     * taken, until that host reports the script gone (compat 250; {@link JobLifecycle#endReported}).
     * Journalled by the end and the report, so a restart in between keeps it.
     */
    private void awaitEndReport(Job job, boolean awaiting) {
        if (job.status().state() == JobState.PREEMPTED
                && job.allocation() != null
                && !job.request().launch().script().isEmpty()) {
            completing.mark(job.id(), job.allocation().batchHost(), awaiting);
        }
    }

    /** A job record that can change what the job holds on its nodes, and the nodes with it. */
    private void occupy(int jobId, StateRecord record, boolean snapshot, long time) {
        Job job = requireJob(jobId);
        Job moved = move(job, record, snapshot);
        usage.moved(job, moved, nodes, time);
        jobs.put(moved);
    }

    private static Job move(Job job, StateRecord record, boolean snapshot) {
        return snapshot ? JobReplay.restore(job, record) : JobReplay.replay(job, record);
    }

    /**
     * When a node that a job lets go of counts as last busy: the record's time, except in a
     * snapshot, whose node registrations carry each node's last busy time already.
     */
    private static long busyTime(long recordTime, boolean snapshot) {
        return snapshot ? 0 : recordTime;
    }

    private Job requireJob(int id) {
        Job job = jobs.get(id);
        if (job == null) {
            throw new IllegalStateException("journal refers to unknown job " + id);
        }
        return job;
    }
}
