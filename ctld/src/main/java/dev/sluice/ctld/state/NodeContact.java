package dev.sluice.ctld.state;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Soft: which nodes answer and when each was last heard from. Rebuilt from heartbeats after a
 * restart, never journaled (a heartbeat changes nothing durable). The methods that change who
 * answers say so, since a node's view in the image shows it.
 */
final class NodeContact {
    private final Set<String> responding = new HashSet<>();
    private final Map<String, Long> lastHeard = new HashMap<>();

    /** @return whether the node was not answering before */
    boolean heard(String node, long time) {
        lastHeard.put(node, time);
        return responding.add(node);
    }

    /** @return whether the node was answering before */
    boolean silent(String node) {
        return responding.remove(node);
    }

    boolean isResponding(String node) {
        return responding.contains(node);
    }

    /** 0 if never since this controller started. */
    long lastHeard(String node) {
        return lastHeard.getOrDefault(node, 0L);
    }

    void forget(String node) {
        responding.remove(node);
        lastHeard.remove(node);
    }
}
