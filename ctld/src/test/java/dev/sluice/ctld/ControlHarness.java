package dev.sluice.ctld;

import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.loop.SoftState;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;

/**
 * Drives control handlers without a controller loop, applying what they decide exactly as the
 * loop does: records replayed in journal order (each with the next sequence number), soft
 * changes through {@link SoftState}. One harness per test, shared by every state the test
 * builds, so sequence numbers only grow as the journal's do.
 */
public final class ControlHarness {
    private long sequence;

    /** For a state built from nothing: the first record gets sequence 1. */
    public ControlHarness() {
        this(0);
    }

    /** For a state a fixture already journaled into, up to {@code lastSequence}. */
    public ControlHarness(long lastSequence) {
        this.sequence = lastSequence;
    }

    /** The last record's sequence number. */
    public long sequence() {
        return sequence;
    }

    /** Journals one record into {@code state}, as the loop's replay after the append. */
    public void replay(ClusterState state, StateRecord record) {
        state.replay(++sequence, record);
    }

    /** A decision the loop accepted: its records replayed, its soft changes applied; its answer. */
    public <T> T apply(ClusterState state, ControlResult<T> result) {
        replayRecords(state, result);
        result.softChanges().forEach(change -> SoftState.apply(state, change));
        return result.response();
    }

    /** Only a decision's records, for tests that look at its soft changes themselves. */
    public void replayRecords(ClusterState state, ControlResult<?> result) {
        result.records().forEach(record -> replay(state, record));
    }
}
