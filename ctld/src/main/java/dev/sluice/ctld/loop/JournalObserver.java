package dev.sluice.ctld.loop;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.StateRecord;
import java.io.IOException;

/**
 * Sees every record the loop journals, on the loop thread, and takes part in the batch's
 * durability: {@link #beforeSync} runs before the journal's sync and failing it fails the batch
 * exactly as a journal failure does. Used by the accounting outbox and the job log ({@link JobLog}).
 */
public interface JournalObserver {
    JournalObserver NONE = new JournalObserver() {
        @Override
        public void applied(long sequence, StateRecord record, ClusterView state) {}

        @Override
        public void beforeSync() {}

        @Override
        public void synced(long sequence) {}
    };

    /** {@code first}, then {@code second}, at each step. */
    static JournalObserver both(JournalObserver first, JournalObserver second) {
        return new JournalObserver() {
            @Override
            public void applying(long sequence, StateRecord record, ClusterView state) {
                first.applying(sequence, record, state);
                second.applying(sequence, record, state);
            }

            @Override
            public void applied(long sequence, StateRecord record, ClusterView state) {
                first.applied(sequence, record, state);
                second.applied(sequence, record, state);
            }

            @Override
            public void beforeSync() throws IOException {
                first.beforeSync();
                second.beforeSync();
            }

            @Override
            public void synced(long sequence) {
                first.synced(sequence);
                second.synced(sequence);
            }
        };
    }

    /**
     * A record was journalled and is about to be applied; {@code state} is the state before it
     * (what a record ends, such as a requeued job's run, is read here). Nothing by default.
     */
    default void applying(long sequence, StateRecord record, ClusterView state) {}

    /** A record was journalled (not yet synced) and applied; {@code state} is the state after it. */
    void applied(long sequence, StateRecord record, ClusterView state);

    /** Make whatever {@link #applied} produced durable; runs before the journal sync. */
    void beforeSync() throws IOException;

    /** The journal is durable through {@code sequence}. */
    void synced(long sequence);
}
