package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.NodeCapacity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A capacity map that differs from another in a few nodes: those nodes' capacities, over the
 * underlying map for every other. The timeline's views of a later time or of reserved resources
 * change only the nodes a release or reservation touches, so a view costs those nodes, not a
 * copy of the cluster, and only the nodes that are read. Read-only to its users; iterates in the
 * underlying map's order, as a copy would. Not thread-safe (a read may work out a change).
 */
final class CapacityOverlay extends DerivedCapacity {
    // Changes are kept as asked and worked out the first time their node is read: a view is
    // mostly read for one partition's nodes, and a GPU node's change costs a copy of its devices.
    private final Map<String, List<UnaryOperator<NodeCapacity>>> pending = new HashMap<>();
    private final Map<String, NodeCapacity> changed = new HashMap<>();

    CapacityOverlay(Map<String, NodeCapacity> under) {
        super(under);
    }

    /** Replaces a node's capacity, as {@code computeIfPresent} would on a copy; absent nodes stay absent. */
    void change(String node, UnaryOperator<NodeCapacity> how) {
        if (!under.containsKey(node)) {
            return;
        }
        NodeCapacity done = changed.remove(node);
        List<UnaryOperator<NodeCapacity>> ops = pending.computeIfAbsent(node, k -> new ArrayList<>(2));
        if (done != null) {
            // Read since its last change: keep what was worked out, then the new change.
            ops.clear();
            ops.add(c -> done);
        }
        ops.add(how);
    }

    @Override
    public NodeCapacity get(Object key) {
        NodeCapacity c = changed.get(key);
        if (c != null) {
            return c;
        }
        List<UnaryOperator<NodeCapacity>> ops = pending.remove(key);
        if (ops == null) {
            return under.get(key);
        }
        c = under.get(key);
        for (UnaryOperator<NodeCapacity> op : ops) {
            c = op.apply(c);
        }
        changed.put((String) key, c);
        return c;
    }
}
