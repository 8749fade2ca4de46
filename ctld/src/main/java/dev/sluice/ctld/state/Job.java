package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * One job as the controller knows it. Immutable; {@link ClusterState#replay} swaps in a new
 * value on each change. Times are epoch seconds, 0 meaning "not yet" (Slurm prints Unknown).
 */
public record Job(
        int id,
        JobRequest request,
        String partition,
        JobState state,
        String reason,
        long submitTime,
        long eligibleTime,
        long startTime,
        long endTime,
        long timeLimitMinutes,
        Allocation allocation,
        int exitStatus,
        int restartCount) {

    public Job {
        requireNonNull(request, "request is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(state, "state is null");
        requireNonNull(reason, "reason is null");
    }

    public static Job submitted(int id, JobRequest request, String partition, long timeLimit, long submitTime) {
        String reason = request.hold() ? "JobHeldUser" : "None";
        return new Job(
                id, request, partition, JobState.PENDING, reason, submitTime, submitTime, 0, 0, timeLimit, null, 0, 0);
    }

    public Job withReason(String newReason) {
        return new Job(
                id,
                request,
                partition,
                state,
                newReason,
                submitTime,
                eligibleTime,
                startTime,
                endTime,
                timeLimitMinutes,
                allocation,
                exitStatus,
                restartCount);
    }

    public Job started(Allocation alloc, long time, long limit, String part) {
        return new Job(
                id,
                request,
                part,
                JobState.RUNNING,
                "None",
                submitTime,
                eligibleTime,
                time,
                0,
                limit,
                alloc,
                0,
                restartCount);
    }

    public Job ended(JobState endState, int status, long time, String endReason) {
        return new Job(
                id,
                request,
                partition,
                endState,
                endReason,
                submitTime,
                eligibleTime,
                startTime,
                time,
                timeLimitMinutes,
                allocation,
                status,
                restartCount);
    }

    public Job requeued(long time) {
        return new Job(
                id,
                request,
                partition,
                JobState.PENDING,
                "BeginTime",
                submitTime,
                time,
                0,
                0,
                timeLimitMinutes,
                null,
                0,
                restartCount + 1);
    }

    public boolean isPending() {
        return state == JobState.PENDING;
    }

    public boolean isRunning() {
        return state.holdsResources();
    }
}
