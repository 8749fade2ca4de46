package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.PartitionState;
import java.util.List;

/**
 * One field {@code scontrol update PartitionName=...} changes, parsed where the request arrives.
 * As in Slurm 22.05 (started without {@code -R}), such a change lasts until the controller
 * restarts or is reconfigured: slurm.conf then says again what the partition is.
 */
public sealed interface PartitionChange {
    /** {@code State=UP|DOWN|DRAIN|INACTIVE}. */
    record State(PartitionState state) implements PartitionChange {
        public State {
            requireNonNull(state, "state is null");
        }
    }

    /** {@code MaxTime=}, in minutes (INFINITE for UNLIMITED). */
    record MaxTime(long minutes) implements PartitionChange {}

    /** {@code DefaultTime=}, in minutes (INFINITE for UNLIMITED). */
    record DefaultTime(long minutes) implements PartitionChange {}

    /** {@code MaxNodes=} ({@link Partition#NODES_UNLIMITED} for UNLIMITED). */
    record MaxNodes(int nodes) implements PartitionChange {}

    /** {@code MinNodes=}. */
    record MinNodes(int nodes) implements PartitionChange {}

    /** {@code Hidden=YES|NO}. */
    record Hidden(boolean hidden) implements PartitionChange {}

    /** The partition with these changes made. */
    static Partition apply(Partition p, List<PartitionChange> changes) {
        PartitionState state = p.state();
        long maxTime = p.limits().maxTimeMinutes();
        long defaultTime = p.limits().defaultTimeMinutes();
        int maxNodes = p.limits().maxNodes();
        int minNodes = p.limits().minNodes();
        boolean hidden = p.access().hidden();
        for (PartitionChange c : changes) {
            switch (c) {
                case State s -> state = s.state();
                case MaxTime t -> maxTime = t.minutes();
                case DefaultTime t -> defaultTime = t.minutes();
                case MaxNodes n -> maxNodes = n.nodes();
                case MinNodes n -> minNodes = n.nodes();
                case Hidden h -> hidden = h.hidden();
            }
        }
        return new Partition(
                p.name(),
                p.nodes(),
                p.isDefault(),
                state,
                p.access().withHidden(hidden),
                new Partition.Limits(maxTime, defaultTime, maxNodes, minNodes),
                p.memory(),
                p.scheduling());
    }
}
