package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;

/**
 * Where a job stands: its state, why (squeue's reason) and, once ended, how.
 *
 * @param exitStatus the wait(2) status of its batch script once ended, 0 before
 * @param prologFailedNode once ended because its allocation Prolog failed (an allocation, which
 *     is cancelled rather than requeued), the node it failed on; empty otherwise
 */
public record JobStatus(JobState state, JobReason reason, int exitStatus, String prologFailedNode) {
    /** A job just submitted (or requeued): pending, for no reason yet. */
    public static final JobStatus PENDING = new JobStatus(JobState.PENDING, JobReason.NONE, 0);

    public JobStatus {
        requireNonNull(state, "state is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(prologFailedNode, "prologFailedNode is null");
    }

    public JobStatus(JobState state, JobReason reason, int exitStatus) {
        this(state, reason, exitStatus, "");
    }

    JobStatus withState(JobState v) {
        return new JobStatus(v, reason, exitStatus, prologFailedNode);
    }

    JobStatus withReason(JobReason v) {
        return new JobStatus(state, v, exitStatus, prologFailedNode);
    }

    JobStatus withExitStatus(int v) {
        return new JobStatus(state, reason, v, prologFailedNode);
    }

    JobStatus withPrologFailedNode(String v) {
        return new JobStatus(state, reason, exitStatus, v);
    }
}
