package dev.sluice.packaging.replay;

/**
 * One job line of a Standard Workload Format trace: its 18 fields in order. Times are seconds
 * (fractions are rounded: the simulation's clock ticks in seconds); -1 means "not known", as in
 * the format.
 */
public record SwfJob(
        long jobNumber,
        long submitTime,
        long waitTime,
        long runTime,
        long allocatedProcessors,
        long averageCpuTime,
        long usedMemoryKb,
        long requestedProcessors,
        long requestedTime,
        long requestedMemoryKb,
        long status,
        long userId,
        long groupId,
        long executable,
        long queue,
        long partition,
        long precedingJob,
        long thinkTime) {

    /** Processors the job asked for, or, where the trace does not say, what it was given. */
    public long processors() {
        return requestedProcessors > 0 ? requestedProcessors : allocatedProcessors;
    }

    /** True when the trace says enough to replay the job: a run time and a processor count. */
    public boolean replayable() {
        return runTime >= 0 && processors() > 0;
    }

    /** The fields in order, as {@link SwfTrace#format} writes them. */
    long[] fields() {
        return new long[] {
            jobNumber,
            submitTime,
            waitTime,
            runTime,
            allocatedProcessors,
            averageCpuTime,
            usedMemoryKb,
            requestedProcessors,
            requestedTime,
            requestedMemoryKb,
            status,
            userId,
            groupId,
            executable,
            queue,
            partition,
            precedingJob,
            thinkTime
        };
    }
}
