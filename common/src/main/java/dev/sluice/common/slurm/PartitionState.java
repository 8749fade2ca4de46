package dev.sluice.common.slurm;

import java.util.Locale;
import java.util.Optional;

/**
 * A partition's {@code State=} (slurm.conf, {@code scontrol show partition}), with what it
 * allows and how {@code sinfo}'s AVAIL column spells it.
 */
public enum PartitionState {
    /** Takes jobs and runs them. */
    UP("up"),
    /** Takes jobs; runs none (they wait with PartitionDown). */
    DOWN("down"),
    /** Takes no new jobs; runs those it has. */
    DRAIN("drain"),
    /** Takes no jobs and runs none (they wait with PartitionInactive). */
    INACTIVE("inact");

    private final String sinfoName;

    PartitionState(String sinfoName) {
        this.sinfoName = sinfoName;
    }

    /** sinfo's AVAIL ({@code %a}): {@code up}, {@code down}, {@code drain}, {@code inact}. */
    public String sinfoName() {
        return sinfoName;
    }

    /** Whether jobs submitted to it are accepted (to wait, if need be). */
    public boolean acceptsJobs() {
        return this == UP || this == DOWN;
    }

    /** Whether the scheduler starts its jobs. */
    public boolean runsJobs() {
        return this == UP;
    }

    /** A state as slurm.conf and scontrol take it, in any case. */
    public static Optional<PartitionState> parse(String text) {
        try {
            return Optional.of(valueOf(text.strip().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
