package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.state.Allocation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
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
 * <p>Answers for the earliest start asked (now) are cached until the next job is added: jobs
 * that start now and overlap the same reservations get the very same map, which lets the scheduler recognise a question it
 * has already asked (see {@link PlacementMemo}). {@link #version} counts the changes.
 *
 * <p>Not thread-safe; lives for one scheduling pass.
 */
final class AvailabilityTimeline {
    private final Map<String, NodeCapacity> now;
    private final List<Interval> releases = new ArrayList<>();
    private final List<Interval> reservations = new ArrayList<>();
    // Reservation bounds as plain numbers: room() and capacityFor() test every reservation for
    // overlap at every candidate time of every reservation search.
    private long[] reservedFrom = new long[16];
    private long[] reservedTo = new long[16];
    // When running jobs and reservations end: the candidate start times, kept sorted as they
    // come rather than gathered and sorted again for each reservation search.
    private final TreeSet<Long> ends = new TreeSet<>();
    private final Map<ViewKey, Map<String, NodeCapacity>> views = new HashMap<>();
    /** Now plus the releases up to a time; reservations do not change these. */
    private final Map<Long, Map<String, NodeCapacity>> bases = new HashMap<>();

    private final Map<TotalKey, Room> baseRooms = new HashMap<>();
    // For room(): nodes by position, each reservation's shares as positions, and which
    // positions a partition holds, so the check per candidate time needs no hashing of names.
    private final Map<String, Integer> position = new HashMap<>();
    private final String[] names;
    private final List<int[]> reservedAt = new ArrayList<>();
    private final Map<String, boolean[]> members = new HashMap<>();
    private final long[] reservedCpus;
    private final int[] touchedNodes;
    // Room.of counts a node's free devices; capacities are immutable values, and the same ones
    // are asked about for every candidate time, so each is counted once per pass.
    private final Map<NodeCapacity, Room> roomOf = new IdentityHashMap<>();
    private boolean releasesSorted = true;
    private long earliest = Long.MAX_VALUE;
    private long firstRelease = Long.MAX_VALUE;
    private int version;

    /** Resources held from {@code start} to {@code end} (for releases: given back at {@code end}). */
    record Interval(long start, long end, Allocation allocation) {}

    /** What a view depends on: which releases have happened and which reservations overlap. */
    private record ViewKey(long start, BitSet overlapping) {}

    private record TotalKey(long start, String label) {}

    AvailabilityTimeline(Map<String, NodeCapacity> now) {
        this.now = new LinkedHashMap<>(now);
        this.names = this.now.keySet().toArray(String[]::new);
        for (int i = 0; i < names.length; i++) {
            position.put(names[i], i);
        }
        this.reservedCpus = new long[names.length];
        this.touchedNodes = new int[names.length];
    }

    /** Jobs added so far: a view handed out before a change is stale after it. */
    int version() {
        return version;
    }

    /** A job that holds resources now and gives them back at {@code end}. */
    void running(Allocation allocation, long end) {
        if (!releases.isEmpty() && releases.getLast().end() > end) {
            releasesSorted = false;
        }
        releases.add(new Interval(0, end, allocation));
        ends.add(end);
        firstRelease = Math.min(firstRelease, end);
        bases.clear();
        baseRooms.clear();
        cpuTotals.clear();
        releaseIndex = null;
        views.clear();
        version++;
    }

    /** A job started in this pass. */
    void started(Allocation allocation, long end) {
        for (Allocation.NodeShare share : allocation.nodes()) {
            now.computeIfPresent(share.node(), (k, n) -> n.minus(share));
        }
        running(allocation, end);
    }

    /**
     * Holds resources for a job from {@code start} to {@code end}. Views handed out so far stay
     * right: a view names the reservations it overlaps, and one asked for later that overlaps
     * this reservation is a different view.
     */
    void reserve(Allocation allocation, long start, long end) {
        int r = reservations.size();
        if (r == reservedFrom.length) {
            reservedFrom = Arrays.copyOf(reservedFrom, r * 2);
            reservedTo = Arrays.copyOf(reservedTo, r * 2);
        }
        reservedFrom[r] = start;
        reservedTo[r] = end;
        reservations.add(new Interval(start, end, allocation));
        ends.add(end);
        List<Allocation.NodeShare> shares = allocation.nodes();
        int[] at = new int[shares.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = position.getOrDefault(shares.get(i).node(), -1);
        }
        reservedAt.add(at);
    }

    /** Capacities a job may use over [start, end): releases up to start, minus overlapping reservations. */
    Map<String, NodeCapacity> capacityFor(long start, long end) {
        BitSet overlapping = new BitSet(reservations.size());
        for (int i = 0; i < reservations.size(); i++) {
            if (reservedFrom[i] < end && start < reservedTo[i]) {
                overlapping.set(i);
            }
        }
        earliest = Math.min(earliest, start);
        if (start > earliest) {
            // A reservation search's later times are rarely asked twice: keeping each view
            // would hold a copy of the cluster per time tried.
            return build(start, overlapping);
        }
        ViewKey key = new ViewKey(start, overlapping);
        Map<String, NodeCapacity> view = views.get(key);
        if (view == null) {
            view = build(start, overlapping);
            views.put(key, view);
        }
        return view;
    }

    /** The caller must not change the map: it may be shared with other views, or be {@link #now}. */
    private Map<String, NodeCapacity> build(long start, BitSet overlapping) {
        Map<String, NodeCapacity> base = bases.computeIfAbsent(start, this::base);
        if (overlapping.isEmpty()) {
            return base;
        }
        CapacityOverlay out = new CapacityOverlay(base);
        for (int i = overlapping.nextSetBit(0); i >= 0; i = overlapping.nextSetBit(i + 1)) {
            withhold(out, reservations.get(i).allocation());
        }
        return out;
    }

    private Map<String, NodeCapacity> base(long start) {
        if (start < firstRelease) {
            // Nothing is given back yet (always so for now): no need to sort what will be.
            return now;
        }
        ReleaseIndex index = releaseIndex();
        if (index.upTo(start) == 0) {
            return now;
        }
        // Over the live map of now: views are handed out only until the next job is added,
        // which is the only thing that changes now.
        return new ReleasedView(now, position, index, start);
    }

    private void sortReleases() {
        if (!releasesSorted) {
            releases.sort(Comparator.comparingLong(Interval::end));
            releasesSorted = true;
        }
    }

    private static void withhold(CapacityOverlay nodes, Allocation a) {
        for (Allocation.NodeShare share : a.nodes()) {
            nodes.change(share.node(), n -> n.minus(beyondBusy(share, n)));
        }
    }

    /**
     * The CPUs and cores of a planned share that the view does not already count busy. A plan is
     * placed on the cores free at its own start; those of its cores busy at the view's start are
     * held by a job that ends before the plan begins, so over the view's interval they are taken
     * once, not twice. Counting them twice kept a job outside a partial reservation off cores it
     * could use whenever a job of the reservation waited for the reservation's cores (Slurm 22.05
     * runs it: compat 292). Memory and GRES stay withheld whole.
     */
    static Allocation.NodeShare beyondBusy(Allocation.NodeShare share, NodeCapacity n) {
        if (share.cores().isEmpty()) {
            return share;
        }
        List<Integer> fresh = new ArrayList<>();
        for (int c : share.cores()) {
            if (!n.busyCores().contains(c)) {
                fresh.add(c);
            }
        }
        if (fresh.size() == share.cores().size()) {
            return share;
        }
        int cpus = share.cpus() * fresh.size() / share.cores().size();
        return new Allocation.NodeShare(share.node(), cpus, share.memoryMb(), share.tasks(), share.gres(), fresh);
    }

    /**
     * What {@code nodes} have free over [start, end), summed over the nodes as
     * {@link #capacityFor} would give them but without building that view: only nodes a
     * reservation touches are worked out, and their GPUs only when {@code gpus} is asked. The reservation search skips a time with less free
     * than the job needs in all.
     *
     * @param label names {@code nodes} (the partition), to remember its totals by
     */
    Room room(long start, long end, String label, Collection<String> nodes, boolean gpus) {
        if (!gpus) {
            long cpus = cpuRoom(start, end, label, nodes);
            if (cpus >= 0) {
                return new Room(cpus, 0);
            }
        }
        Map<String, NodeCapacity> base = bases.computeIfAbsent(start, this::base);
        Room total = baseRooms.computeIfAbsent(new TotalKey(start, label), k -> {
            Room sum = Room.NONE;
            for (String name : nodes) {
                NodeCapacity n = base.get(name);
                if (n != null) {
                    sum = sum.plus(roomOf(n));
                }
            }
            return sum;
        });
        boolean[] member = member(label, nodes);
        // CPUs are plain numbers, summed per node in a scratch array; GPUs are devices, worked
        // out on a copy of each touched node.
        Map<String, NodeCapacity> touched = new HashMap<>();
        int touchedCount = 0;
        for (int r = 0; r < reservations.size(); r++) {
            if (!(reservedFrom[r] < end && start < reservedTo[r])) {
                continue;
            }
            int[] at = reservedAt.get(r);
            List<Allocation.NodeShare> shares = reservations.get(r).allocation().nodes();
            for (int i = 0; i < at.length; i++) {
                int node = at[i];
                if (node < 0 || !member[node]) {
                    continue;
                }
                Allocation.NodeShare share = shares.get(i);
                if (share.cpus() > 0) {
                    if (reservedCpus[node] == 0) {
                        touchedNodes[touchedCount++] = node;
                    }
                    reservedCpus[node] += share.cpus();
                }
                if (gpus && !share.gres().isEmpty()) {
                    NodeCapacity n = base.get(share.node());
                    touched.put(
                            share.node(), touched.getOrDefault(share.node(), n).minus(share));
                }
            }
        }
        long cpus = total.cpus();
        for (int i = 0; i < touchedCount; i++) {
            int node = touchedNodes[i];
            long reserved = reservedCpus[node];
            reservedCpus[node] = 0;
            long free = Math.max(0, base.get(names[node]).freeCpus());
            cpus -= Math.min(free, reserved);
        }
        long freeGpus = total.gpus();
        for (NodeCapacity after : touched.values()) {
            freeGpus -= roomOf(base.get(after.name())).gpus() - Room.of(after).gpus();
        }
        return new Room(cpus, freeGpus);
    }

    private boolean[] member(String label, Collection<String> nodes) {
        return members.computeIfAbsent(label, k -> {
            boolean[] in = new boolean[names.length];
            for (String name : nodes) {
                Integer at = position.get(name);
                if (at != null) {
                    in[at] = true;
                }
            }
            return in;
        });
    }

    /**
     * {@link #room}'s CPUs worked out as numbers, without a view of {@code start}: free now,
     * plus what releases up to {@code start} give back, minus the overlapping reservations — a
     * reservation search then reads no node's capacity for the times it rejects. -1 when a node
     * of the label is overcommitted now (its free CPUs below zero), where the sum of releases is
     * not what a view counts; {@link #room} then works it out from the view.
     */
    private long cpuRoom(long start, long end, String label, Collection<String> nodes) {
        boolean[] member = member(label, nodes);
        CpuTotals totals = cpuTotals.computeIfAbsent(label, k -> CpuTotals.of(this, member));
        if (totals.nowCpus() < 0) {
            return -1;
        }
        ReleaseIndex index = releaseIndex();
        long cpus = totals.nowCpus() + totals.released()[index.upTo(start)];
        int touchedCount = 0;
        for (int r = 0; r < reservations.size(); r++) {
            if (!(reservedFrom[r] < end && start < reservedTo[r])) {
                continue;
            }
            int[] at = reservedAt.get(r);
            List<Allocation.NodeShare> shares = reservations.get(r).allocation().nodes();
            for (int i = 0; i < at.length; i++) {
                int node = at[i];
                if (node < 0 || !member[node] || shares.get(i).cpus() <= 0) {
                    continue;
                }
                if (reservedCpus[node] == 0) {
                    touchedNodes[touchedCount++] = node;
                }
                reservedCpus[node] += shares.get(i).cpus();
            }
        }
        for (int i = 0; i < touchedCount; i++) {
            int node = touchedNodes[i];
            long reserved = reservedCpus[node];
            reservedCpus[node] = 0;
            long free = Math.max(0, now.get(names[node]).freeCpus() + index.releasedOn(node, start));
            cpus -= Math.min(free, reserved);
        }
        return cpus;
    }

    /** A label's CPUs free now, and prefix sums of what the releases (by end) give back to it. */
    private record CpuTotals(long nowCpus, long[] released) {
        static CpuTotals of(AvailabilityTimeline t, boolean[] member) {
            long nowCpus = 0;
            for (int pos = 0; pos < t.names.length; pos++) {
                if (member[pos]) {
                    int free = t.now.get(t.names[pos]).freeCpus();
                    if (free < 0) {
                        return new CpuTotals(-1, new long[0]);
                    }
                    nowCpus += free;
                }
            }
            List<Interval> sorted = t.releaseIndex().sorted();
            long[] released = new long[sorted.size() + 1];
            for (int i = 0; i < sorted.size(); i++) {
                long sum = 0;
                for (Allocation.NodeShare share : sorted.get(i).allocation().nodes()) {
                    Integer pos = t.position.get(share.node());
                    if (pos != null && member[pos]) {
                        sum += share.cpus();
                    }
                }
                released[i + 1] = released[i] + sum;
            }
            return new CpuTotals(nowCpus, released);
        }
    }

    private final Map<String, CpuTotals> cpuTotals = new HashMap<>();
    private ReleaseIndex releaseIndex;

    private ReleaseIndex releaseIndex() {
        if (releaseIndex == null) {
            sortReleases();
            releaseIndex = ReleaseIndex.of(List.copyOf(releases), position, names.length);
        }
        return releaseIndex;
    }

    private Room roomOf(NodeCapacity n) {
        return roomOf.computeIfAbsent(n, Room::of);
    }

    /** Times worth trying as a start: now, and each moment a running job or a reservation ends. */
    List<Long> candidateStarts(long from, long horizon, int max) {
        List<Long> out = new ArrayList<>(Math.min(max, ends.size() + 1));
        out.add(from);
        if (horizon <= from) {
            return out;
        }
        for (long t : ends.subSet(from, false, horizon, true)) {
            if (out.size() >= max) {
                break;
            }
            out.add(t);
        }
        return out;
    }
}
