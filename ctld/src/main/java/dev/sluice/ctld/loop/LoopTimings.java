package dev.sluice.ctld.loop;

/**
 * Told, on the loop thread, how long the loop's own work took, so metrics can keep histograms
 * without the loop knowing about them. Implementations must not block: they run between a
 * batch's decisions and its answers.
 */
public interface LoopTimings {
    LoopTimings NONE = new LoopTimings() {};

    /** One scheduling pass (main scheduler and backfill are one pass here) took this long. */
    default void schedulePass(long nanos) {}

    /**
     * What the same pass did (sdiag's statistics), told right after {@link #schedulePass}; the
     * facts are computed only when some listener {@link #wantsCycles() wants them}.
     */
    default void scheduleCycle(long nanos, long when, dev.sluice.ctld.sched.CycleFacts facts) {}

    /** Whether {@link #scheduleCycle} is listened to. */
    default boolean wantsCycles() {
        return false;
    }

    /** {@code first}, then {@code second}. */
    static LoopTimings both(LoopTimings first, LoopTimings second) {
        return new LoopTimings() {
            @Override
            public void schedulePass(long nanos) {
                first.schedulePass(nanos);
                second.schedulePass(nanos);
            }

            @Override
            public void scheduleCycle(long nanos, long when, dev.sluice.ctld.sched.CycleFacts facts) {
                first.scheduleCycle(nanos, when, facts);
                second.scheduleCycle(nanos, when, facts);
            }

            @Override
            public boolean wantsCycles() {
                return first.wantsCycles() || second.wantsCycles();
            }

            @Override
            public void journalSync(long nanos) {
                first.journalSync(nanos);
                second.journalSync(nanos);
            }
        };
    }

    /** The journal's sync (the group commit every answer of the batch waits for) took this long. */
    default void journalSync(long nanos) {}
}
