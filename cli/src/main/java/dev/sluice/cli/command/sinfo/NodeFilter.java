package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.view.NodeStates;
import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.common.slurm.NodeStatus;
import dev.sluice.protocol.v1.NodeInfo;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
            case "idle" -> base(NodeState.IDLE);
            // Real Slurm 22.05 lists a mixed node (some CPUs allocated) under -t alloc too.
            case "alloc", "allocated" -> base(NodeState.ALLOCATED).or(base(NodeState.MIXED));
            case "mix", "mixed" -> base(NodeState.MIXED);
            case "down" -> base(NodeState.DOWN);
            case "future", "futr" -> base(NodeState.FUTURE);
            case "unknown", "unk" -> base(NodeState.UNKNOWN);
            case "drain" -> flag(NodeFlag.DRAIN);
            case "drained" -> node -> NodeStates.compactName(node).startsWith("drain");
            case "draining", "drng" -> node -> NodeStates.compactName(node).startsWith("drng");
            case "comp", "completing" -> flag(NodeFlag.COMPLETING);
            case "no_respond", "noresp" -> flag(NodeFlag.NOT_RESPONDING);
            case "fail" -> flag(NodeFlag.FAIL);
            case "maint" -> flag(NodeFlag.MAINT);
            case "reserved", "resv" -> flag(NodeFlag.RESERVED);
            case "cloud" -> flag(NodeFlag.CLOUD);
            case "powered_down" -> flag(NodeFlag.POWERED_DOWN);
            case "powering_down" -> flag(NodeFlag.POWERING_DOWN);
            case "power_down" -> flag(NodeFlag.POWER_DOWN);
            case "powering_up" -> flag(NodeFlag.POWERING_UP);
            case "reboot" -> flag(NodeFlag.REBOOT_REQUESTED);
            case "reboot^" -> flag(NodeFlag.REBOOT_ISSUED);
            case "planned" -> flag(NodeFlag.PLANNED);
            default -> null;
        };
        return Optional.ofNullable(p);
    }

    private static Predicate<NodeInfo> base(NodeState base) {
        return node -> NodeStates.status(node).base() == base;
    }

    private static Predicate<NodeInfo> flag(NodeFlag flag) {
        return node -> NodeStates.status(node).has(flag);
    }

    /** sinfo -R: nodes an administrator or Slurm has given a reason for being out of service. */
    static boolean hasReasonState(NodeInfo node) {
        NodeStatus status = NodeStates.status(node);
        return status.base() == NodeState.DOWN || status.has(NodeFlag.DRAIN) || status.has(NodeFlag.FAIL);
    }

    static boolean responding(NodeInfo node) {
        return !NodeStates.status(node).has(NodeFlag.NOT_RESPONDING);
    }

    static Predicate<NodeInfo> anyOf(List<Predicate<NodeInfo>> tests) {
        return node -> tests.stream().anyMatch(t -> t.test(node));
    }
}
