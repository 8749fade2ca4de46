package dev.sluice.ctld.loop;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.persistence.Journal;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the loop's decisions reach the state and the disk: each record is journalled under the
 * next sequence, shown to the observer (accounting) and replayed onto the state; {@link #sync}
 * then makes everything since the last sync durable at once (the journal's fsync and the
 * observer's share one batch) and compacts a journal grown long. Loop thread only.
 */
final class RecordWriter {
    private static final Logger log = LoggerFactory.getLogger(RecordWriter.class);
    private static final long COMPACT_AFTER_ENTRIES = 50_000;

    private final ClusterState state;
    private final Journal journal;
    private final JournalObserver observer;
    private long nextSequence;

    RecordWriter(ClusterState state, Journal journal, JournalObserver observer) {
        this.state = requireNonNull(state, "state is null");
        this.journal = requireNonNull(journal, "journal is null");
        this.observer = requireNonNull(observer, "observer is null");
        this.nextSequence = state.sequence() + 1;
    }

    /** The sequence the next record gets: it moves whenever anything is journalled. */
    long nextSequence() {
        return nextSequence;
    }

    void apply(StateRecord record) {
        long seq = nextSequence++;
        journal.append(seq, record);
        observer.applying(seq, record, state);
        state.replay(seq, record);
        observer.applied(seq, record, state);
    }

    /** Makes what was applied durable; fails when StateSaveLocation refuses the write. */
    void sync(LoopTimings timings) throws IOException {
        observer.beforeSync();
        if (journal.hasUnsynced()) {
            // Timed (and counted) only when there is something to write: a batch of
            // queries and heartbeats makes no sync.
            long syncStart = System.nanoTime();
            journal.sync();
            timings.journalSync(System.nanoTime() - syncStart);
        }
        observer.synced(nextSequence - 1);
        if (journal.entriesInSegment() > COMPACT_AFTER_ENTRIES) {
            journal.compact(nextSequence - 1, state.nextJobId(), state.toRecords());
            log.info("journal compacted through sequence {}", nextSequence - 1);
        }
    }

    /** Whether StateSaveLocation takes writes again after a failed one. */
    boolean writable() {
        return journal.writable();
    }
}
