package dev.sluice.ctld.state;

import dev.sluice.ctld.state.StateRecord.ArrayTaskSplit;
import dev.sluice.ctld.state.StateRecord.JobHoldChanged;
import dev.sluice.ctld.state.StateRecord.JobSubmitted;
import dev.sluice.ctld.state.StateRecord.JobUpdated;
import dev.sluice.ctld.state.StateRecord.JobsPurged;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The nodes' part of the last image, reused by the next one while nothing it shows has changed:
 * most records change only jobs, and a listing of thousands of nodes need not be built again for
 * them (the job table shares its unchanged chunks on its own).
 */
final class NodeViews {
    private List<NodeView> list;
    private Map<String, NodeView> byName;

    /** Something a node's view shows changed (its usage, its state, whether it answers). */
    void changed() {
        list = null;
    }

    /** As {@link #changed} for a record that can change a node's view; not for one of jobs only. */
    void replayed(StateRecord record) {
        if (!(record instanceof JobSubmitted
                || record instanceof ArrayTaskSplit
                || record instanceof JobUpdated
                || record instanceof JobHoldChanged
                || record instanceof StateRecord.StepRecorded
                || record instanceof JobsPurged
                || record instanceof StateRecord.PrologWait
                || record instanceof StateRecord.ReservationSaved
                || record instanceof StateRecord.ReservationDeleted)) {
            changed();
        }
    }

    /** The views, built again from {@code nodes} only when something changed since the last. */
    List<NodeView> list(Collection<Node> nodes, Function<Node, NodeView> view) {
        if (list == null) {
            List<NodeView> views = new ArrayList<>(nodes.size());
            Map<String, NodeView> named = new HashMap<>();
            for (Node node : nodes) {
                NodeView v = view.apply(node);
                views.add(v);
                named.put(node.name(), v);
            }
            list = List.copyOf(views);
            byName = Map.copyOf(named);
        }
        return list;
    }

    /** The views by node name, as of the last {@link #list}. */
    Map<String, NodeView> byName() {
        return byName;
    }
}
