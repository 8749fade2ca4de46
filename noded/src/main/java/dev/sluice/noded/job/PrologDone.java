package dev.sluice.noded.job;

import static java.util.Objects.requireNonNull;

/**
 * {@code PrologFlags=Alloc}: a run's Prolog is done on this node, with its exit status (non-zero
 * drains the node and gives the job back to the queue).
 */
public record PrologDone(String nodeName, int jobId, int restartCount, int status) {
    public PrologDone {
        requireNonNull(nodeName, "nodeName is null");
    }
}
