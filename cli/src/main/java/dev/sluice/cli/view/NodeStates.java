package dev.sluice.cli.view;

import dev.sluice.protocol.v1.NodeInfo;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Node state names as Slurm prints them, from a base state ({@code IDLE}, {@code ALLOCATED},
 * {@code MIXED}, {@code DOWN}, {@code FUTURE}, {@code UNKNOWN}) and flags ({@code DRAIN},
 * {@code COMPLETING}, {@code NOT_RESPONDING}, ...).
 *
 * <p>Rules (sinfo(1) "NODE STATE CODES", checked against Slurm 22.05): a draining node that
 * still runs work (allocated, mixed or completing) is {@code draining}/{@code drng}, otherwise
 * {@code drained}/{@code drain}; {@code FAIL} likewise gives {@code failing}/{@code fail};
 * {@code COMPLETING} shows as {@code completing}/{@code comp}. A suffix character marks
 * conditions: {@code *} not responding, {@code ~} powered off, {@code #} powering up,
 * {@code %} powering down, {@code !} power down pending, {@code @} reboot pending, {@code ^}
 * reboot issued, {@code -} planned by the backfill scheduler, {@code $} in a maintenance
 * reservation.
 */
public final class NodeStates {
    private NodeStates() {}

    // Slurm's numeric node states (slurm.h), used only to order sinfo's lines as Slurm does
    // ("-t": decreasing state value, flags included).
    private static final Map<String, Integer> BASE_VALUES =
            Map.of("UNKNOWN", 0, "DOWN", 1, "IDLE", 2, "ALLOCATED", 3, "ERROR", 4, "MIXED", 5, "FUTURE", 6);
    private static final Map<String, Integer> FLAG_VALUES = Map.ofEntries(
            Map.entry("DRAIN", 0x200),
            Map.entry("COMPLETING", 0x400),
            Map.entry("NOT_RESPONDING", 0x800),
            Map.entry("POWERED_DOWN", 0x1000),
            Map.entry("FAIL", 0x2000),
            Map.entry("POWERING_UP", 0x4000),
            Map.entry("MAINT", 0x8000),
            Map.entry("REBOOT_REQUESTED", 0x10000),
            Map.entry("POWERING_DOWN", 0x40000),
            Map.entry("REBOOT_ISSUED", 0x100000),
            Map.entry("PLANNED", 0x200000),
            Map.entry("POWER_DOWN", 0x800000),
            Map.entry("RESERVED", 0x40));
    private static final List<String[]> SUFFIXES = List.of(
            new String[] {"NOT_RESPONDING", "*"},
            new String[] {"POWERED_DOWN", "~"},
            new String[] {"POWERING_UP", "#"},
            new String[] {"POWERING_DOWN", "%"},
            new String[] {"POWER_DOWN", "!"},
            new String[] {"REBOOT_REQUESTED", "@"},
            new String[] {"REBOOT_ISSUED", "^"},
            new String[] {"PLANNED", "-"},
            new String[] {"RESERVED", "$"});

    public static String base(NodeInfo node) {
        String b = node.getState().toUpperCase(Locale.ROOT);
        return switch (b) {
            case "ALLOC" -> "ALLOCATED";
            case "MIX" -> "MIXED";
            case "" -> "UNKNOWN";
            default -> b;
        };
    }

    public static Set<String> flags(NodeInfo node) {
        return Set.copyOf(node.getFlagsList().stream()
                .map(f -> f.toUpperCase(Locale.ROOT))
                .toList());
    }

    private static boolean busy(String base, Set<String> flags) {
        return base.equals("ALLOCATED") || base.equals("MIXED") || flags.contains("COMPLETING");
    }

    /** sinfo {@code %T}: {@code idle}, {@code draining}, {@code down*} ... */
    public static String longName(NodeInfo node) {
        String base = base(node);
        Set<String> flags = flags(node);
        String name;
        if (flags.contains("MAINT")) {
            name = "maint";
        } else if (flags.contains("DRAIN")) {
            name = busy(base, flags) ? "draining" : "drained";
        } else if (flags.contains("FAIL")) {
            name = busy(base, flags) ? "failing" : "fail";
        } else if (flags.contains("COMPLETING") && !base.equals("DOWN")) {
            name = "completing";
        } else {
            name = switch (base) {
                case "ALLOCATED" -> "allocated";
                case "MIXED" -> "mixed";
                case "IDLE" -> "idle";
                case "DOWN" -> "down";
                case "FUTURE" -> "future";
                case "ERROR" -> "error";
                default -> "unknown";
            };
        }
        return name + suffix(flags);
    }

    /** sinfo {@code %t}: {@code idle}, {@code drng}, {@code down*} ... */
    public static String compactName(NodeInfo node) {
        String base = base(node);
        Set<String> flags = flags(node);
        String name;
        if (flags.contains("MAINT")) {
            name = "maint";
        } else if (flags.contains("DRAIN")) {
            name = busy(base, flags) ? "drng" : "drain";
        } else if (flags.contains("FAIL")) {
            name = busy(base, flags) ? "failg" : "fail";
        } else if (flags.contains("COMPLETING") && !base.equals("DOWN")) {
            name = "comp";
        } else {
            name = switch (base) {
                case "ALLOCATED" -> "alloc";
                case "MIXED" -> "mix";
                case "IDLE" -> "idle";
                case "DOWN" -> "down";
                case "FUTURE" -> "futr";
                case "ERROR" -> "err";
                default -> "unk";
            };
        }
        return name + suffix(flags);
    }

    // Flag names in the order of their bits in slurm.h, which is the order scontrol prints them
    // in (State=DOWN+DRAIN+NOT_RESPONDING, IDLE+PLANNED).
    private static final List<String> FLAG_ORDER = List.of(
            "RESERVED",
            "UNDRAIN",
            "CLOUD",
            "RESUME",
            "DRAIN",
            "COMPLETING",
            "NOT_RESPONDING",
            "POWERED_DOWN",
            "FAIL",
            "POWERING_UP",
            "MAINT",
            "REBOOT_REQUESTED",
            "REBOOT_CANCEL",
            "POWERING_DOWN",
            "DYNAMIC_FUTURE",
            "REBOOT_ISSUED",
            "PLANNED",
            "INVALID_REG",
            "POWER_DOWN",
            "POWER_UP",
            "POWER_DRAIN",
            "DYNAMIC_NORM");

    /** scontrol {@code State=}: the base state, then {@code +FLAG} for each flag, in bit order. */
    public static String scontrolName(NodeInfo node) {
        StringBuilder s = new StringBuilder(base(node));
        Set<String> flags = flags(node);
        for (String f : FLAG_ORDER) {
            if (flags.contains(f)) {
                s.append('+').append(f);
            }
        }
        return s.toString();
    }

    private static String suffix(Set<String> flags) {
        for (String[] s : SUFFIXES) {
            if (flags.contains(s[0])) {
                return s[1];
            }
        }
        return "";
    }

    /** Slurm's numeric state with flags, for sinfo's "decreasing state" order. */
    public static int numeric(NodeInfo node) {
        int v = BASE_VALUES.getOrDefault(base(node), 0);
        for (String f : flags(node)) {
            v |= FLAG_VALUES.getOrDefault(f, 0);
        }
        return v;
    }

    /**
     * Counted as "allocated" in sinfo's NODES(A/I/O/T): any node running work, drained or not
     * (a draining node is A in Slurm 22.05).
     */
    public static boolean countsAllocated(NodeInfo node) {
        return busy(base(node), flags(node));
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
        Set<String> flags = flags(node);
        String base = base(node);
        return base.equals("DOWN")
                || base.equals("FUTURE")
                || base.equals("UNKNOWN")
                || flags.contains("DRAIN")
                || flags.contains("FAIL")
                || flags.contains("NOT_RESPONDING");
    }
}
