package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementExplanation;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The allocator's answers within one scheduling pass. The allocator is pure, and the
 * {@link AvailabilityTimeline} hands out the very same capacity map until something changes, so
 * a queued job asking what an earlier job asked of the same capacities gets the same answer
 * without a new search over every node. With a deep queue of a few job shapes on a full
 * cluster, almost every job is answered here. Whether a request could ever fit a partition reads
 * only node configuration, so that answer holds for the whole pass.
 *
 * <p>Not thread-safe; lives for one scheduling pass.
 */
final class PlacementMemo {
    private static final int MAX_VIEWS = 64;

    private record Key(String partition, PlacementRequest request) {}

    /** What was worked out against one capacity map. */
    private static final class ViewAnswers {
        final Map<String, List<NodeCapacity>> nodes = new HashMap<>();
        final Map<Key, PlacementResult> placed = new HashMap<>();
        final Map<Key, String> explained = new HashMap<>();
    }

    private final Map<Key, Optional<PlacementResult.Rejected>> rejections = new HashMap<>();
    private final Map<Map<String, NodeCapacity>, ViewAnswers> byView = new IdentityHashMap<>();
    private int version = -1;

    /** {@link Allocator#place} of the partition's nodes as {@code capacity} has them. */
    PlacementResult place(
            Partition partition, Map<String, NodeCapacity> capacity, int timelineVersion, PlacementRequest request) {
        ViewAnswers answers = answers(capacity, timelineVersion);
        Key key = new Key(partition.name(), request);
        Optional<PlacementResult.Rejected> never = rejection(answers, partition, capacity, key);
        if (never.isPresent()) {
            return never.get();
        }
        PlacementResult result = answers.placed.get(key);
        if (result == null) {
            // A greedy fill in preference order stops at the first nodes that hold the job: read
            // lazily, a view of a later time is not worked out for the nodes after them.
            result = readsInOrder(partition, capacity, request)
                    ? Allocator.placeFrom(new LazyNodes(partition.nodes(), capacity), request, new int[1])
                    : Allocator.placeFeasible(nodes(answers, partition, capacity), request);
            answers.placed.put(key, result);
        }
        return result;
    }

    /** The request names no nodes and the partition lists its nodes in the allocator's order. */
    private boolean readsInOrder(Partition partition, Map<String, NodeCapacity> capacity, PlacementRequest request) {
        return request.requiredNodes().isEmpty()
                && request.excludedNodes().isEmpty()
                && inPreferenceOrder(partition, capacity);
    }

    /**
     * {@link #place} for a job that would start now and run {@code seconds}. Views of now for one
     * run length only shrink as the pass goes on (starts take from now, reservations are added,
     * none removed), so where a request found the leading nodes full it keeps looking after them:
     * on a full cluster of 10,000 nodes a queue of jobs is answered without reading every node
     * for each. Only for partitions whose nodes are in preference order and requests that name
     * no nodes; other cases go through {@link #place}.
     */
    PlacementResult placeNow(
            Partition partition,
            Map<String, NodeCapacity> capacity,
            int timelineVersion,
            PlacementRequest request,
            long seconds) {
        if (!readsInOrder(partition, capacity, request)) {
            return place(partition, capacity, timelineVersion, request);
        }
        ViewAnswers answers = answers(capacity, timelineVersion);
        Key key = new Key(partition.name(), request);
        Optional<PlacementResult.Rejected> never = rejection(answers, partition, capacity, key);
        if (never.isPresent()) {
            return never.get();
        }
        PlacementResult result = answers.placed.get(key);
        if (result == null) {
            int[] cursor = cursors.computeIfAbsent(new CursorKey(key, seconds), k -> new int[1]);
            result = Allocator.placeFrom(new LazyNodes(partition.nodes(), capacity), request, cursor);
            answers.placed.put(key, result);
        }
        return result;
    }

    /** Why the request could never run in the partition; read once per pass (configuration only). */
    private Optional<PlacementResult.Rejected> rejection(
            ViewAnswers answers, Partition partition, Map<String, NodeCapacity> capacity, Key key) {
        Optional<PlacementResult.Rejected> never = rejections.get(key);
        if (never == null) {
            never = Optional.ofNullable(Allocator.rejection(nodes(answers, partition, capacity), key.request()));
            rejections.put(key, never);
        }
        return never;
    }

    private record CursorKey(Key key, long seconds) {}

    private final Map<CursorKey, int[]> cursors = new HashMap<>();
    private final Map<String, Boolean> ordered = new HashMap<>();

    /** Node weights never decrease along the partition's list: the allocator's order is the list's. */
    private boolean inPreferenceOrder(Partition partition, Map<String, NodeCapacity> capacity) {
        return ordered.computeIfAbsent(partition.name(), p -> {
            int last = Integer.MIN_VALUE;
            for (String name : partition.nodes()) {
                NodeCapacity n = capacity.get(name);
                if (n != null) {
                    if (n.weight() < last) {
                        return false;
                    }
                    last = n.weight();
                }
            }
            return true;
        });
    }

    /** The partition's nodes as a view has them, read one by one as the allocator asks. */
    private static final class LazyNodes extends java.util.AbstractList<NodeCapacity>
            implements java.util.RandomAccess {
        private final List<String> names;
        private final Map<String, NodeCapacity> capacity;

        LazyNodes(List<String> names, Map<String, NodeCapacity> capacity) {
            this.names = names;
            this.capacity = capacity;
        }

        @Override
        public NodeCapacity get(int index) {
            return capacity.get(names.get(index));
        }

        @Override
        public int size() {
            return names.size();
        }
    }

    /** {@link PlacementExplanation#explain} of the partition's nodes as {@code capacity} has them. */
    String explain(
            Partition partition, Map<String, NodeCapacity> capacity, int timelineVersion, PlacementRequest request) {
        ViewAnswers answers = answers(capacity, timelineVersion);
        Key key = new Key(partition.name(), request);
        String why = answers.explained.get(key);
        if (why == null) {
            why = PlacementExplanation.explain(nodes(answers, partition, capacity), request);
            answers.explained.put(key, why);
        }
        return why;
    }

    private ViewAnswers answers(Map<String, NodeCapacity> capacity, int timelineVersion) {
        if (timelineVersion != version || byView.size() >= MAX_VIEWS) {
            // The timeline changed (every map it handed out before is stale), or the reservation
            // search has asked about many maps it will not ask about again.
            byView.clear();
            version = timelineVersion;
        }
        return byView.computeIfAbsent(capacity, c -> new ViewAnswers());
    }

    private static List<NodeCapacity> nodes(
            ViewAnswers answers, Partition partition, Map<String, NodeCapacity> capacity) {
        return answers.nodes.computeIfAbsent(partition.name(), p -> nodesOf(partition, capacity));
    }

    /** The partition's nodes in configuration order, as {@code capacity} has them. */
    static List<NodeCapacity> nodesOf(Partition partition, Map<String, NodeCapacity> capacity) {
        List<NodeCapacity> out = new ArrayList<>(partition.nodes().size());
        for (String name : partition.nodes()) {
            NodeCapacity n = capacity.get(name);
            if (n != null) {
                out.add(n);
            }
        }
        return out;
    }
}
