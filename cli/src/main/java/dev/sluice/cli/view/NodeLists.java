package dev.sluice.cli.view;

import dev.sluice.common.hostlist.HostList;

/**
 * Node lists as Slurm prints them: ranged and sorted ({@code n[1-3,7]}). The controller may send
 * either form; an expression this side cannot parse is printed as received rather than lost.
 */
public final class NodeLists {
    private NodeLists() {}

    public static String ranged(String expression) {
        if (expression == null || expression.isBlank()) {
            return "";
        }
        try {
            return HostList.compressSorted(HostList.expand(expression));
        } catch (IllegalArgumentException e) {
            return expression;
        }
    }

    /** {@code ranged}, but Slurm's {@code (null)} for nothing (scontrol's ReqNodeList=). */
    public static String rangedOrNull(String expression) {
        String r = ranged(expression);
        return r.isEmpty() ? "(null)" : r;
    }
}
