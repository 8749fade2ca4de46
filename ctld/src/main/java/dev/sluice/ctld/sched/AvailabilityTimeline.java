package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.state.Allocation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Resources over time for backfill (Flux's planner, in miniature): what is free now, what
 * running jobs give back when their time limits end, and what has been reserved for
 * higher-priority jobs. Answers "what may a job that runs from {@code start} to {@code end} use"
 * without ever handing it resources reserved for an overlapping interval, so a backfilled job
 * can never delay a reservation.
 *
 * <p>Not thread-safe; lives for one scheduling pass.
 */
final class AvailabilityTimeline {
    private final Map<String, NodeCapacity> now;
    private final List<Interval> releases = new ArrayList<>();
    private final List<Interval> reservations = new ArrayList<>();

    /** Resources held from {@code start} to {@code end} (for releases: given back at {@code end}). */
    private record Interval(long start, long end, Allocation allocation) {}

    AvailabilityTimeline(Map<String, NodeCapacity> now) {
        this.now = new LinkedHashMap<>(now);
    }

    /** A job that holds resources now and gives them back at {@code end}. */
    void running(Allocation allocation, long end) {
        releases.add(new Interval(0, end, allocation));
    }

    /** A job started in this pass. */
    void started(Allocation allocation, long end) {
        for (Allocation.NodeShare share : allocation.nodes()) {
            now.computeIfPresent(share.node(), (k, n) -> n.minus(share));
        }
        running(allocation, end);
    }

    void reserve(Allocation allocation, long start, long end) {
        reservations.add(new Interval(start, end, allocation));
    }

    /** Capacities a job may use over [start, end): releases up to start, minus overlapping reservations. */
    Map<String, NodeCapacity> capacityFor(long start, long end) {
        Map<String, NodeCapacity> out = new LinkedHashMap<>(now);
        for (Interval r : releases) {
            if (r.end() <= start) {
                apply(out, r.allocation(), true);
            }
        }
        for (Interval r : reservations) {
            if (r.start() < end && start < r.end()) {
                apply(out, r.allocation(), false);
            }
        }
        return out;
    }

    private static void apply(Map<String, NodeCapacity> nodes, Allocation a, boolean release) {
        for (Allocation.NodeShare share : a.nodes()) {
            nodes.computeIfPresent(share.node(), (k, n) -> release ? n.plus(share) : n.minus(share));
        }
    }

    /** Times worth trying as a start: now, and each moment a running job or a reservation ends. */
    List<Long> candidateStarts(long from, long horizon, int max) {
        TreeSet<Long> times = new TreeSet<>();
        times.add(from);
        for (List<Interval> intervals : List.of(releases, reservations)) {
            for (Interval r : intervals) {
                if (r.end() > from && r.end() <= horizon) {
                    times.add(r.end());
                }
            }
        }
        List<Long> out = new ArrayList<>(times);
        return out.size() > max ? out.subList(0, max) : out;
    }
}
