package dev.sluice.ctld.rpc;

import dev.sluice.protocol.v1.NodeInfo;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each node daemon measured at its last heartbeat: its CPU load and free memory
 * ({@code scontrol show node}'s CPULoad and FreeMem, sinfo's {@code %O} and {@code %e}). Kept
 * beside the cluster state, not in it: a reading changes with every heartbeat, and putting it
 * in the state would republish the nodes' image (and wake the scheduler) each time.
 */
public final class NodeReadings {
    private record Reading(double cpuLoad, long freeMemoryMb) {}

    private final ConcurrentHashMap<String, Reading> byNode = new ConcurrentHashMap<>();

    /** The node's daemon reported these (a heartbeat). */
    public void heard(String node, double cpuLoad, long freeMemoryMb) {
        byNode.put(node, new Reading(cpuLoad, freeMemoryMb));
    }

    /** A node removed from the cluster: its last readings go with it. */
    public void forget(String node) {
        byNode.remove(node);
    }

    /** {@code node} with its last readings, as they stand (0 before its first heartbeat). */
    public NodeInfo withReadings(NodeInfo node) {
        Reading r = byNode.get(node.getName());
        if (r == null) {
            return node;
        }
        return node.toBuilder()
                .setCpuLoad(r.cpuLoad())
                .setFreeMemoryMb(r.freeMemoryMb())
                .build();
    }
}
