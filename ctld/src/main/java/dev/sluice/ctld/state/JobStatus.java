package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;

/**
 * Where a job stands: its state, why (squeue's reason) and, once ended, how.
 *
 * @param exitStatus the wait(2) status of its batch script once ended, 0 before
 */
public record JobStatus(JobState state, JobReason reason, int exitStatus) {
    /** A job just submitted (or requeued): pending, for no reason yet. */
    public static final JobStatus PENDING = new JobStatus(JobState.PENDING, JobReason.NONE, 0);

    public JobStatus {
        requireNonNull(state, "state is null");
        requireNonNull(reason, "reason is null");
    }

    JobStatus withState(JobState v) {
        return new JobStatus(v, reason, exitStatus);
    }

    JobStatus withReason(JobReason v) {
        return new JobStatus(state, v, exitStatus);
    }

    JobStatus withExitStatus(int v) {
        return new JobStatus(state, reason, v);
    }
}
