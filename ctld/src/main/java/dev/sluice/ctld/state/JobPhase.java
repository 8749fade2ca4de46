package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobState;

/** Where a job is in its life: the rows of {@link JobLifecycle}'s tables. */
public enum JobPhase {
    PENDING,
    RUNNING,
    SUSPENDED,
    FINISHED;

    public static JobPhase of(JobState state) {
        return switch (state) {
            case PENDING -> PENDING;
            case RUNNING -> RUNNING;
            case SUSPENDED -> SUSPENDED;
            default -> FINISHED;
        };
    }
}
