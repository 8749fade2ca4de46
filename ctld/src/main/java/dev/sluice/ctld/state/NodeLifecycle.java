package dev.sluice.ctld.state;

import dev.sluice.common.slurm.NodeState;

/**
 * What each {@link NodeTransition} does to a node's durable state. One pure function, so the
 * whole lifecycle is one table (see its test); replay and snapshots both go through it.
 *
 * <p>Only the administrative part ({@link NodeAdmin}) lives here: the DOWN or FUTURE base state,
 * the DRAIN flag and the reason with its user and time. ALLOCATED, MIXED, IDLE, COMPLETING and
 * "not responding" are derived by {@link NodeView} from running jobs and soft state, never
 * journaled.
 */
public final class NodeLifecycle {
    private NodeLifecycle() {}

    public static Node apply(Node node, NodeTransition transition, String reason, String user, long time) {
        NodeAdmin admin = node.admin();
        // Leaving DOWN returns a node to service, but a FUTURE node stays FUTURE until it registers.
        NodeState notDown = admin.future() ? NodeState.FUTURE : NodeState.IDLE;
        NodeAdmin next = switch (transition) {
            case DOWN -> new NodeAdmin(NodeState.DOWN, admin.drain(), reason, user, time);
            case DRAIN -> new NodeAdmin(admin.base(), true, reason, user, time);
            case RESUME -> NodeAdmin.UP;
            case UNDRAIN ->
                admin.down()
                        ? new NodeAdmin(NodeState.DOWN, false, admin.reason(), admin.reasonUser(), admin.reasonTime())
                        : new NodeAdmin(notDown, false, "", "", 0);
            case FUTURE -> new NodeAdmin(NodeState.FUTURE, false, reason, user, time);
            case RETURN ->
                admin.drain()
                        ? new NodeAdmin(notDown, true, admin.reason(), admin.reasonUser(), admin.reasonTime())
                        : new NodeAdmin(notDown, false, "", "", 0);
        };
        return node.withAdmin(next);
    }
}
