package dev.sluice.ctld.state;

/**
 * A job's current run in time: epoch seconds, 0 meaning "not yet" (Slurm prints Unknown).
 *
 * @param submitTime when this run counts as submitted: Slurm's accounting keeps one record per
 *     run, keyed by job id and submit time, so a requeue submits the job anew
 * @param eligibleTime when it may start (its begin time, or the hold-back after a requeue)
 * @param restartCount how many runs came before this one (requeues)
 */
public record JobRun(long submitTime, long eligibleTime, long startTime, long endTime, int restartCount) {
    /** A first run, not started. */
    static JobRun submitted(long submitTime, long eligibleTime) {
        return new JobRun(submitTime, eligibleTime, 0, 0, 0);
    }

    JobRun withSubmitTime(long v) {
        return new JobRun(v, eligibleTime, startTime, endTime, restartCount);
    }

    JobRun withEligibleTime(long v) {
        return new JobRun(submitTime, v, startTime, endTime, restartCount);
    }

    JobRun withStartTime(long v) {
        return new JobRun(submitTime, eligibleTime, v, endTime, restartCount);
    }

    JobRun withEndTime(long v) {
        return new JobRun(submitTime, eligibleTime, startTime, v, restartCount);
    }

    JobRun withRestartCount(int v) {
        return new JobRun(submitTime, eligibleTime, startTime, endTime, v);
    }
}
