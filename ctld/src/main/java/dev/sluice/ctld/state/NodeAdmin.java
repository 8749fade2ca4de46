package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.NodeState;

/**
 * The administrative part of a node's state, as Slurm models it: a base state set by an
 * administrator or slurm.conf ({@link NodeState#DOWN}, {@link NodeState#FUTURE}, or {@link
 * NodeState#IDLE} for "up", whose ALLOCATED or MIXED {@link NodeView} derives from running jobs)
 * plus the DRAIN flag, with the reason, who gave it and when (epoch seconds). A node can be
 * DOWN+DRAIN or FUTURE+DRAIN but not DOWN and FUTURE at once.
 */
public record NodeAdmin(NodeState base, boolean drain, String reason, String reasonUser, long reasonTime) {
    /** Up, not drained, no reason. */
    public static final NodeAdmin UP = new NodeAdmin(NodeState.IDLE, false, "", "", 0);

    /** slurm.conf's {@code State=FUTURE}: configured, not yet in service. */
    public static final NodeAdmin FUTURE = new NodeAdmin(NodeState.FUTURE, false, "", "", 0);

    public NodeAdmin {
        requireNonNull(base, "base is null");
        if (base != NodeState.IDLE && base != NodeState.DOWN && base != NodeState.FUTURE) {
            throw new IllegalArgumentException("administrative base state " + base + " is not IDLE, DOWN or FUTURE");
        }
        requireNonNull(reason, "reason is null");
        requireNonNull(reasonUser, "reasonUser is null");
    }

    public boolean down() {
        return base == NodeState.DOWN;
    }

    public boolean future() {
        return base == NodeState.FUTURE;
    }

    /** The same reason and flag with another base state. */
    public NodeAdmin withBase(NodeState newBase) {
        return new NodeAdmin(newBase, drain, reason, reasonUser, reasonTime);
    }
}
