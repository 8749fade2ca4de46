package dev.sluice.cli.view;

import dev.sluice.common.slurm.NodeStatus;
import dev.sluice.protocol.v1.NodeInfo;

/**
 * A node's state as the commands print it: the wire's base state and flags read into
 * {@code common.slurm.NodeStatus}, which owns the names, suffixes and order Slurm uses.
 */
public final class NodeStates {
    private NodeStates() {}

    public static NodeStatus status(NodeInfo node) {
        return NodeStatus.parse(node.getState(), node.getFlagsList());
    }

    /** The base state's name: {@code IDLE}, {@code ALLOCATED}, {@code UNKNOWN} for none. */
    public static String base(NodeInfo node) {
        return status(node).base().name();
    }

    /** sinfo {@code %T}: {@code idle}, {@code draining}, {@code down*} ... */
    public static String longName(NodeInfo node) {
        return status(node).longName();
    }

    /** sinfo {@code %t}: {@code idle}, {@code drng}, {@code down*} ... */
    public static String compactName(NodeInfo node) {
        return status(node).compactName();
    }

    /** scontrol {@code State=}: the base state, then {@code +FLAG} for each flag, in bit order. */
    public static String scontrolName(NodeInfo node) {
        return status(node).scontrolName();
    }

    /** Slurm's numeric state with flags, for sinfo's "decreasing state" order. */
    public static int numeric(NodeInfo node) {
        return status(node).numeric();
    }

    /**
     * Counted as "allocated" in sinfo's NODES(A/I/O/T): any node running work, drained or not
     * (a draining node is A in Slurm 22.05).
     */
    public static boolean countsAllocated(NodeInfo node) {
        return status(node).busy();
    }

    /** Counted as "idle" in NODES(A/I/O/T): not busy and available. */
    public static boolean countsIdle(NodeInfo node) {
        return !countsAllocated(node) && !unavailable(node);
    }

    /**
     * Down, future, never registered, drained, failing or not responding. Such a node's free
     * CPUs count as "other" in CPUS(A/I/O/T), and the node itself as "other" unless busy.
     */
    public static boolean unavailable(NodeInfo node) {
        return status(node).unavailable();
    }
}
