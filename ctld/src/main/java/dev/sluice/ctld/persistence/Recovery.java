package dev.sluice.ctld.persistence;

import dev.sluice.ctld.state.ClusterState;
import dev.sluice.protocol.v1.journal.JournalEntry;
import java.io.IOException;
import java.nio.file.Path;

/** Rebuilds controller state at start-up: snapshot, then the journal after it. */
public final class Recovery {
    private Recovery() {}

    public record Result(Journal journal, long snapshotEntries, long journalEntries) {}

    public static Result recover(Path stateSaveLocation, ClusterState state, boolean truncateCorrupt)
            throws IOException {
        Journal.Recovered r = Journal.open(stateSaveLocation, truncateCorrupt);
        long through = r.snapshot().getThroughSequence();
        for (JournalEntry e : r.snapshot().getEntriesList()) {
            state.restore(through, RecordCodec.decode(e));
        }
        state.reserveJobIdsBelow(r.snapshot().getNextJobId());
        for (JournalEntry e : r.entries()) {
            state.replay(e.getSequence(), RecordCodec.decode(e));
        }
        return new Result(
                r.journal(), r.snapshot().getEntriesCount(), r.entries().size());
    }
}
