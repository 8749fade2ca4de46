package dev.sluice.common.slurm;

import java.util.Locale;
import java.util.Optional;

/**
 * What happens to a job another job preempts (slurm.conf(5) {@code PreemptMode}, per partition
 * or cluster-wide, and a QOS's {@code PreemptMode}). {@code GANG} and {@code WITHIN} are
 * modifiers, not modes: {@link #parse} reads the mode among the words.
 */
public enum PreemptMode {
    /** Never preempted. */
    OFF,
    /** Ended with state PREEMPTED. */
    CANCEL,
    /** Back to PENDING (PREEMPTED in accounting), if it may be requeued; else as CANCEL. */
    REQUEUE,
    /** Stopped while the preemptor runs, resumed after (needs GANG). */
    SUSPEND;

    /**
     * The mode a {@code PreemptMode} value names ({@code REQUEUE}, {@code SUSPEND,GANG}, ...), or
     * empty when it names none ({@code ""}, {@code GANG} alone, QOS's {@code cluster}): the
     * cluster's mode then applies.
     */
    public static Optional<PreemptMode> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        for (String w : value.split(",")) {
            switch (w.strip().toUpperCase(Locale.ROOT)) {
                case "OFF" -> {
                    return Optional.of(OFF);
                }
                case "CANCEL" -> {
                    return Optional.of(CANCEL);
                }
                case "REQUEUE" -> {
                    return Optional.of(REQUEUE);
                }
                case "SUSPEND" -> {
                    return Optional.of(SUSPEND);
                }
                default -> {
                    // GANG, WITHIN, PRIORITY, CLUSTER: modifiers, or "as the cluster".
                }
            }
        }
        return Optional.empty();
    }
}
