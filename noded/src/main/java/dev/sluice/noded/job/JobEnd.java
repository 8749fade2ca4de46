package dev.sluice.noded.job;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobState;
import java.util.Optional;

/**
 * A batch job's end as this node tells the controller: the run that ended, its raw wait(2)
 * status (exit code in bits 8-15, signal in bits 0-6), whether the node's Prolog or Epilog
 * failed, and the state the node ended it in for a reason of its own (TIMEOUT, OUT_OF_MEMORY, the
 * CANCELLED a terminate asked for); empty when the job ended by itself.
 */
public record JobEnd(
        String nodeName,
        int jobId,
        int restartCount,
        int exitStatus,
        boolean prologFailed,
        boolean epilogFailed,
        Optional<JobState> endState) {
    public JobEnd {
        requireNonNull(nodeName, "nodeName is null");
        requireNonNull(endState, "endState is null");
    }
}
