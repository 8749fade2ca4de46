package dev.sluice.ctld.state;

/**
 * Administrative node changes that are journaled ({@code scontrol update State=...}, silence,
 * registration checks). {@link NodeLifecycle} says what each does to a node.
 */
public enum NodeTransition {
    /** DOWN with a reason; running jobs are ended by whoever decides it. */
    DOWN,
    /** DRAIN flag with a reason: running jobs finish, nothing new starts (DRAINING → DRAINED). */
    DRAIN,
    /** Clears DOWN and DRAIN and the reason. */
    RESUME,
    /** Clears DRAIN only; a DOWN node stays DOWN with its reason. */
    UNDRAIN,
    /** The node is expected later: not scheduled, not expected to answer. */
    FUTURE,
    /**
     * A DOWN node registered again and {@code ReturnToService} lets it back: DOWN clears, an
     * administrator's DRAIN (and its reason) stays.
     */
    RETURN
}
