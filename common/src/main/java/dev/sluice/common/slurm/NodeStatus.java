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
 * powered off, ...; {@link NodeFlag#suffix()}). A node in an active maintenance reservation is
 * {@code maint} while it runs nothing, else its state with {@code $} ({@code mix$}); one in any
 * other active reservation is {@code reserved}/{@code resv} while idle, else named as usual.
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
        if (maintAlone()) {
            return "maint";
        } else if (has(NodeFlag.DRAIN)) {
            return busy() ? "draining" : "drained";
        } else if (has(NodeFlag.FAIL)) {
            return busy() ? "failing" : "fail";
        } else if (has(NodeFlag.COMPLETING) && base != NodeState.DOWN) {
            return "completing";
        } else if (reservedAlone()) {
            return "reserved";
        }
        return base.longName();
    }

    /** sinfo {@code %t}: {@code idle}, {@code drng}, {@code down*} ... */
    public String compactName() {
        String name;
        if (maintAlone()) {
            name = "maint";
        } else if (has(NodeFlag.DRAIN)) {
            name = busy() ? "drng" : "drain";
        } else if (has(NodeFlag.FAIL)) {
            name = busy() ? "failg" : "fail";
        } else if (has(NodeFlag.COMPLETING) && base != NodeState.DOWN) {
            name = "comp";
        } else if (reservedAlone()) {
            name = "resv";
        } else {
            name = base.compactName();
        }
        return name + suffix();
    }

    /**
     * scontrol {@code State=}: the base state, then {@code +FLAG} for each flag in the order of
     * Slurm 22.05's flag name table ({@code IDLE+MAINTENANCE+RESERVED}).
     */
    public String scontrolName() {
        StringBuilder s = new StringBuilder(base.name());
        for (NodeFlag f : SCONTROL_ORDER) {
            if (has(f)) {
                s.append('+').append(f.scontrolName());
            }
        }
        return s.toString();
    }

    /** node_state_flags[] of Slurm 22.05's slurm_protocol_defs.c, the flags Sluice knows. */
    private static final NodeFlag[] SCONTROL_ORDER = {
        NodeFlag.CLOUD,
        NodeFlag.COMPLETING,
        NodeFlag.DRAIN,
        NodeFlag.DYNAMIC_FUTURE,
        NodeFlag.DYNAMIC_NORM,
        NodeFlag.INVALID_REG,
        NodeFlag.FAIL,
        NodeFlag.MAINT,
        NodeFlag.POWER_DOWN,
        NodeFlag.POWER_UP,
        NodeFlag.POWERED_DOWN,
        NodeFlag.REBOOT_REQUESTED,
        NodeFlag.REBOOT_ISSUED,
        NodeFlag.RESERVED,
        NodeFlag.RESUME,
        NodeFlag.NOT_RESPONDING,
        NodeFlag.PLANNED,
        NodeFlag.POWERING_UP,
        NodeFlag.POWERING_DOWN,
        NodeFlag.UNDRAIN,
        NodeFlag.REBOOT_CANCEL,
        NodeFlag.POWER_DRAIN
    };

    /** MAINT names the state itself unless the node drains, runs work or is down ({@code $}). */
    private boolean maintAlone() {
        return has(NodeFlag.MAINT)
                && !has(NodeFlag.DRAIN)
                && base != NodeState.ALLOCATED
                && base != NodeState.MIXED
                && base != NodeState.DOWN;
    }

    /** An idle reserved node is {@code reserved} unless a condition suffix names it. */
    private boolean reservedAlone() {
        return base == NodeState.IDLE && has(NodeFlag.RESERVED) && suffix().isEmpty();
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
            NodeFlag.MAINT,
            NodeFlag.NOT_RESPONDING,
            NodeFlag.POWERED_DOWN,
            NodeFlag.POWERING_UP,
            NodeFlag.POWERING_DOWN,
            NodeFlag.POWER_DOWN,
            NodeFlag.REBOOT_REQUESTED,
            NodeFlag.REBOOT_ISSUED,
            NodeFlag.PLANNED
        }) {
            // A node that is "maint" outright carries no "$" as well.
            if (has(f) && !(f == NodeFlag.MAINT && maintAlone())) {
                return f.suffix();
            }
        }
        return "";
    }
}
