package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobState;

/**
 * One job step as accounting sees it (sacct's {@code N.0} rows).
 *
 * @param stepId Slurm's step number (0, 1, ...)
 * @param state RUNNING while it runs; COMPLETED, FAILED or CANCELLED once it ended
 * @param endTime epoch seconds, 0 while it runs
 * @param exitStatus wait(2)-style: exit code {@code << 8} | signal
 * @param tres Slurm's TRES text, e.g. {@code cpu=2,mem=0,node=1}
 */
public record JobStep(
        int stepId,
        String name,
        JobState state,
        long startTime,
        long endTime,
        int exitStatus,
        String nodeList,
        int numNodes,
        int numTasks,
        int cpus,
        String tres) {
    public JobStep {
        requireNonNull(name, "name is null");
        requireNonNull(state, "state is null");
        requireNonNull(nodeList, "nodeList is null");
        requireNonNull(tres, "tres is null");
    }

    /** The same step, ended at {@code time} with {@code status}, in {@code state}. */
    public JobStep ended(JobState endState, int status, long time) {
        return new JobStep(stepId, name, endState, startTime, time, status, nodeList, numNodes, numTasks, cpus, tres);
    }
}
