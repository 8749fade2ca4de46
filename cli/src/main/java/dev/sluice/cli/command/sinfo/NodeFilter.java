package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.view.NodeStates;
import dev.sluice.protocol.v1.NodeInfo;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * sinfo's node filters: {@code -t} state names, {@code -n} names, {@code -r}/{@code -d}
 * responding or not, {@code -R} nodes with a reason (down, drained, draining, failing).
 */
final class NodeFilter {
    static final String VALID_STATES = "unknown,down,idle,allocated,?,mixed,future,drain,drained,draining,"
            + "no_respond,reserved,perfctrs,cloud,completing,powering_down,powered_down,power_down,"
            + "powering_up,fail,maint,reboot,reboot^,unknown";

    private NodeFilter() {}

    /** The node test for one {@code -t} name, or empty when sinfo would reject the name. */
    static Optional<Predicate<NodeInfo>> state(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        Predicate<NodeInfo> p = switch (n) {
            case "idle" -> base("IDLE");
            // Real Slurm 22.05 lists a mixed node (some CPUs allocated) under -t alloc too.
            case "alloc", "allocated" -> base("ALLOCATED").or(base("MIXED"));
            case "mix", "mixed" -> base("MIXED");
            case "down" -> base("DOWN");
            case "future", "futr" -> base("FUTURE");
            case "unknown", "unk" -> base("UNKNOWN");
            case "drain" -> flag("DRAIN");
            case "drained" -> node -> NodeStates.compactName(node).startsWith("drain");
            case "draining", "drng" -> node -> NodeStates.compactName(node).startsWith("drng");
            case "comp", "completing" -> flag("COMPLETING");
            case "no_respond", "noresp" -> flag("NOT_RESPONDING");
            case "fail" -> flag("FAIL");
            case "maint" -> flag("MAINT");
            case "reserved", "resv" -> flag("RESERVED");
            case "cloud" -> flag("CLOUD");
            case "powered_down" -> flag("POWERED_DOWN");
            case "powering_down" -> flag("POWERING_DOWN");
            case "power_down" -> flag("POWER_DOWN");
            case "powering_up" -> flag("POWERING_UP");
            case "reboot" -> flag("REBOOT_REQUESTED");
            case "reboot^" -> flag("REBOOT_ISSUED");
            case "planned" -> flag("PLANNED");
            default -> null;
        };
        return Optional.ofNullable(p);
    }

    private static Predicate<NodeInfo> base(String base) {
        return node -> NodeStates.base(node).equals(base);
    }

    private static Predicate<NodeInfo> flag(String flag) {
        return node -> NodeStates.flags(node).contains(flag);
    }

    /** sinfo -R: nodes an administrator or Slurm has given a reason for being out of service. */
    static boolean hasReasonState(NodeInfo node) {
        Set<String> flags = NodeStates.flags(node);
        return NodeStates.base(node).equals("DOWN") || flags.contains("DRAIN") || flags.contains("FAIL");
    }

    static boolean responding(NodeInfo node) {
        return !NodeStates.flags(node).contains("NOT_RESPONDING");
    }

    static Predicate<NodeInfo> anyOf(List<Predicate<NodeInfo>> tests) {
        return node -> tests.stream().anyMatch(t -> t.test(node));
    }
}
