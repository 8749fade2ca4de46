package dev.sluice.ctld.state;

/**
 * What each {@link NodeTransition} does to a node's durable state. One pure function, so the
 * whole lifecycle is one table (see its test); replay and snapshots both go through it.
 *
 * <p>Only the administrative part lives here: DOWN, DRAIN, FUTURE and the reason with its user
 * and time. ALLOCATED, MIXED, IDLE, COMPLETING and "not responding" are derived by
 * {@link NodeView} from running jobs and soft state, never journaled.
 */
public final class NodeLifecycle {
    private NodeLifecycle() {}

    public static Node apply(Node node, NodeTransition transition, String reason, String user, long time) {
        return switch (transition) {
            case DOWN -> node.withAdmin(true, node.drain(), reason, user, time).withFuture(false);
            case DRAIN -> node.withAdmin(node.down(), true, reason, user, time);
            case RESUME -> node.withAdmin(false, false, "", "", 0).withFuture(false);
            case UNDRAIN ->
                node.down()
                        ? node.withAdmin(true, false, node.reason(), node.reasonUser(), node.reasonTime())
                        : node.withAdmin(false, false, "", "", 0);
            case FUTURE -> node.withAdmin(false, false, reason, user, time).withFuture(true);
            case RETURN ->
                node.drain()
                        ? node.withAdmin(false, true, node.reason(), node.reasonUser(), node.reasonTime())
                        : node.withAdmin(false, false, "", "", 0);
        };
    }
}
