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

    /** The journal's sync (the group commit every answer of the batch waits for) took this long. */
    default void journalSync(long nanos) {}
}
