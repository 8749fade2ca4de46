package dev.sluice.ctld.loop;

import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.state.ClusterView;

/** One request for the controller thread: decide, from the current state, what changes. */
@FunctionalInterface
public interface Command<T> {
    /**
     * Runs on the controller thread. Reads {@code state} only (the view has no mutators); throws
     * {@link dev.sluice.common.error.SlurmException} to refuse the request.
     *
     * @param now the controller clock, epoch seconds
     */
    ControlResult<T> decide(ClusterView state, long now);
}
