package dev.sluice.common.slurm;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

/**
 * A node's base state with its flags, and the names Slurm derives from them (sinfo(1) "NODE
 * STATE CODES", checked against Slurm 22.05): a draining node that still runs work (allocated,
 * mixed or completing) is {@code draining}/{@code drng}, otherwise {@code drained}/{@code drain};
 * {@code FAIL} likewise gives {@code failing}/{@code fail}; {@code COMPLETING} shows as {@code
 * completing}/{@code comp}; a suffix marks conditions ({@code *} not responding, {@code ~}
 * powered off, ...; {@link NodeFlag#suffix()}).
 */
public record NodeStatus(NodeState base, Set<NodeFlag> flags) {
    public NodeStatus {
        requireNonNull(base, "base is null");
        flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
    }

    /** From the names the wire carries; flags Slurm does not print are left out. */
    public static NodeStatus parse(String base, Collection<String> flagNames) {
        EnumSet<NodeFlag> flags = EnumSet.noneOf(NodeFlag.class);
        for (String f : flagNames) {
            NodeFlag.parse(f).ifPresent(flags::add);
        }
        return new NodeStatus(NodeState.parse(base), flags);
    }

    public boolean has(NodeFlag flag) {
        return flags.contains(flag);
    }

    /** Running work (allocated, mixed or completing). */
    public boolean busy() {
        return base.busy() || has(NodeFlag.COMPLETING);
    }

    /** sinfo {@code %T}: {@code idle}, {@code draining}, {@code down*} ... */
    public String longName() {
        return longNameAlone() + suffix();
    }

    /** sinfo {@code %T} without the condition suffix: {@code idle}, {@code drained}. */
    public String longNameAlone() {
        if (has(NodeFlag.MAINT)) {
            return "maint";
        } else if (has(NodeFlag.DRAIN)) {
            return busy() ? "draining" : "drained";
        } else if (has(NodeFlag.FAIL)) {
            return busy() ? "failing" : "fail";
        } else if (has(NodeFlag.COMPLETING) && base != NodeState.DOWN) {
            return "completing";
        }
        return base.longName();
    }

    /** sinfo {@code %t}: {@code idle}, {@code drng}, {@code down*} ... */
    public String compactName() {
        String name;
        if (has(NodeFlag.MAINT)) {
            name = "maint";
        } else if (has(NodeFlag.DRAIN)) {
            name = busy() ? "drng" : "drain";
        } else if (has(NodeFlag.FAIL)) {
            name = busy() ? "failg" : "fail";
        } else if (has(NodeFlag.COMPLETING) && base != NodeState.DOWN) {
            name = "comp";
        } else {
            name = base.compactName();
        }
        return name + suffix();
    }

    /** scontrol {@code State=}: the base state, then {@code +FLAG} for each flag, in bit order. */
    public String scontrolName() {
        StringBuilder s = new StringBuilder(base.name());
        for (NodeFlag f : NodeFlag.values()) {
            if (has(f)) {
                s.append('+').append(f.name());
            }
        }
        return s.toString();
    }

    /** Slurm's numeric state with flags, for sinfo's "decreasing state" order. */
    public int numeric() {
        int v = base.value();
        for (NodeFlag f : flags) {
            v |= f.bit();
        }
        return v;
    }

    /**
     * Down, future, never registered, drained, failing or not responding: not available for
     * new work.
     */
    public boolean unavailable() {
        return base == NodeState.DOWN
                || base == NodeState.FUTURE
                || base == NodeState.UNKNOWN
                || has(NodeFlag.DRAIN)
                || has(NodeFlag.FAIL)
                || has(NodeFlag.NOT_RESPONDING);
    }

    private String suffix() {
        // The first condition in the order sinfo checks them.
        for (NodeFlag f : new NodeFlag[] {
            NodeFlag.NOT_RESPONDING,
            NodeFlag.POWERED_DOWN,
            NodeFlag.POWERING_UP,
            NodeFlag.POWERING_DOWN,
            NodeFlag.POWER_DOWN,
            NodeFlag.REBOOT_REQUESTED,
            NodeFlag.REBOOT_ISSUED,
            NodeFlag.PLANNED,
            NodeFlag.RESERVED
        }) {
            if (has(f)) {
                return f.suffix();
            }
        }
        return "";
    }
}
