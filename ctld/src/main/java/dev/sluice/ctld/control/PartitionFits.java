package dev.sluice.ctld.control;

import dev.sluice.ctld.sched.ReservationAdmission;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a submission is checked against on its partition: the nodes' idle capacities and whether
 * a request could ever run on them ({@link Allocator#rejection}), remembered while every node of
 * the partition is the very same {@link Node}. A burst of submissions of a few shapes otherwise
 * builds every node's capacity and searches the whole partition for each job. Node records are
 * replaced, never changed, so a node that registers, changes or is deleted, or a partition whose
 * list changes, makes them worked out again: the answers are {@code Allocator}'s, only not
 * asked twice.
 */
final class PartitionFits {
    /** Request shapes remembered per partition before they are forgotten together. */
    private static final int MAX_SHAPES = 256;

    private final Map<String, Fits> byPartition = new HashMap<>();

    private static final class Fits {
        /** The partition's nodes as the state held them, null where it held none. */
        final Node[] nodes;

        final List<NodeCapacity> idle;
        final Map<PlacementRequest, Optional<PlacementResult.Rejected>> rejections = new HashMap<>();

        Fits(Node[] nodes, List<NodeCapacity> idle) {
            this.nodes = nodes;
            this.idle = idle;
        }
    }

    /** The partition's nodes as idle capacities, in its order (nodes the state lacks left out). */
    synchronized List<NodeCapacity> idle(ClusterView state, Partition partition) {
        return fits(state, partition).idle;
    }

    /** {@link Allocator#rejection} of the partition's idle nodes: why it could never run; null when it could. */
    synchronized PlacementResult.Rejected rejection(ClusterView state, Partition partition, PlacementRequest request) {
        Fits fits = fits(state, partition);
        Optional<PlacementResult.Rejected> never = fits.rejections.get(request);
        if (never == null) {
            if (fits.rejections.size() >= MAX_SHAPES) {
                fits.rejections.clear();
            }
            never = Optional.ofNullable(Allocator.rejection(fits.idle, request));
            fits.rejections.put(request, never);
        }
        return never.orElse(null);
    }

    private Fits fits(ClusterView state, Partition partition) {
        List<String> names = partition.nodes();
        Fits known = byPartition.get(partition.name());
        if (known != null && same(known.nodes, names, state)) {
            return known;
        }
        Node[] nodes = new Node[names.size()];
        List<NodeCapacity> idle = new ArrayList<>(names.size());
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = state.node(names.get(i));
            if (nodes[i] != null) {
                // A node as the "could it ever run" check sees it: all of it free.
                idle.add(ReservationAdmission.idle(nodes[i]));
            }
        }
        Fits fresh = new Fits(nodes, List.copyOf(idle));
        byPartition.put(partition.name(), fresh);
        return fresh;
    }

    private static boolean same(Node[] nodes, List<String> names, ClusterView state) {
        if (nodes.length != names.size()) {
            return false;
        }
        for (int i = 0; i < nodes.length; i++) {
            if (state.node(names.get(i)) != nodes[i]) {
                return false;
            }
        }
        return true;
    }
}
