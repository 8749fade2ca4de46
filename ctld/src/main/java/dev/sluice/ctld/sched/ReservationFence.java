package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.Reservation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What advance reservations leave a job over a stretch of time {@code [from, to)}. A job that
 * names no reservation may not use a node any reservation holds at some moment of that stretch
 * (so backfill never starts a job on reserved nodes when its time limit would reach into the
 * window). A job in a reservation runs only on its nodes (FLEX: on others too) and only once its
 * window has begun. A job that names none but that an active MAGNETIC reservation lets in is
 * tried inside it first ({@link #magnet}), then outside it like any other: never on both its
 * nodes and others (Slurm 22.05, compat 202).
 */
final class ReservationFence {
    private final List<Reservation> current;
    private final List<String> allNodes;

    private ReservationFence(List<Reservation> current, List<String> allNodes) {
        this.current = current;
        this.allNodes = allNodes;
    }

    static ReservationFence of(ClusterImage image, long now) {
        List<Reservation> current = image.reservations().current(now);
        List<String> all = current.isEmpty()
                ? List.of()
                : image.nodes().stream().map(NodeView::name).toList();
        return new ReservationFence(current, all);
    }

    boolean isEmpty() {
        return current.isEmpty();
    }

    /**
     * Why the job may not start now whatever is free (its reservation has not begun, and is not
     * FLEX), or null.
     */
    JobReason gate(Job job, long now) {
        String name = job.request().reservation();
        if (name.isEmpty()) {
            return null;
        }
        Reservation r = find(name);
        // FLEX: its jobs may begin before its window (Slurm 22.05, compat 188).
        return r == null || (r.start() > now && !r.has(ReservationFlag.FLEX)) ? JobReason.RESERVATION : null;
    }

    /**
     * The nodes a job may not use at some moment of a window, and whether its own reservation
     * alone keeps it off nodes: it runs in one, and no other reservation closes a node outside it
     * then. Such a job waits for its reservation's resources, and Slurm 22.05 says so:
     * "Resources" (compat 170). {@code ownNodesTaken}: another reservation holds some of its own
     * reservation's nodes then.
     */
    record Closed(Set<String> nodes, boolean onlyOwnConfines, boolean ownNodesTaken) {
        static final Closed NONE = new Closed(Set.of(), false, false);
    }

    /** The nodes the job may not use at some moment of {@code [from, to)}. */
    Set<String> closed(Job job, long from, long to) {
        return closure(job, from, to).nodes();
    }

    /** {@link #closed} and whether only the job's own reservation closes them, worked out once. */
    Closed closure(Job job, long from, long to) {
        return closure(job, own(job), from, to);
    }

    /** {@link #closure} as if the job ran in {@code own} (null: in none). */
    Closed closure(Job job, Reservation own, long from, long to) {
        Set<String> closed = closedByOthers(job, own, from, to);
        boolean onlyOwn = own != null && own.nodes().containsAll(closed);
        boolean ownTaken = false;
        if (own != null) {
            if (!own.has(ReservationFlag.FLEX) && !own.has(ReservationFlag.ANY_NODES)) {
                for (String node : allNodes) {
                    if (!own.nodes().contains(node)) {
                        closed.add(node);
                    }
                }
            }
            if (own.has(ReservationFlag.OVERLAP)) {
                closed.removeAll(own.nodes());
            } else {
                // Its nodes that another reservation (an OVERLAP one made on them) holds then are
                // not its jobs' to use: Slurm 22.05 keeps them off, "Reserved for maintenance"
                // (compat 189).
                ownTaken = !java.util.Collections.disjoint(closed, own.nodes());
            }
        }
        return new Closed(closed, onlyOwn && !ownTaken, ownTaken);
    }

    /**
     * Whether the job is in an active FLEX reservation whose nodes, all of them free, could never
     * hold it, so that it must take nodes outside it too. Slurm 22.05 leaves such a job that
     * cannot start without a reason ({@code None}), after a backfill cycle too, and holds nothing
     * back for it: later jobs of the reservation start on its nodes meanwhile (compat 223).
     */
    boolean spillsOver(Job job, ClusterImage image, long now, PlacementRequest request) {
        Reservation own = own(job);
        if (own == null || !own.has(ReservationFlag.FLEX) || !own.active(now)) {
            return false;
        }
        List<NodeCapacity> idle = image.nodes().stream()
                .filter(n -> own.nodes().contains(n.name()))
                .map(n -> ReservationAdmission.idle(n.node()))
                .toList();
        return !ReservationAdmission.fitsInside(own, idle, request);
    }

    /**
     * The active MAGNETIC reservation a job that names none may run in: the first that lets its
     * user and account in, or null.
     */
    Reservation magnet(Job job, long now) {
        if (!job.request().reservation().isEmpty()) {
            return null;
        }
        for (Reservation r : current) {
            if (r.has(ReservationFlag.MAGNETIC) && r.active(now) && permits(r, job)) {
                return r;
            }
        }
        return null;
    }

    /**
     * How many of {@code license} reservations keep from the job over {@code [from, to)}: all that
     * each one but its own holds whose window meets that stretch (Slurm 22.05's
     * job_test_lic_resv, compat 284, 286).
     */
    long licensesKept(Job job, String license, long from, long to) {
        String own = job.request().reservation();
        long kept = 0;
        for (Reservation r : current) {
            if (!r.name().equals(own)) {
                kept += r.licensesHeld(license, from, to);
            }
        }
        return kept;
    }

    /**
     * Whether the job's reservation is over for good at {@code t}: a job in it cannot start then,
     * so the backfill search holds nothing for it there. (It held cores outside the reservation
     * from its end on, which kept a job outside off them: Slurm 22.05 runs that one, compat 292.)
     */
    boolean over(Job job, long t) {
        Reservation own = own(job);
        return own != null && own.ended(t);
    }

    private Reservation own(Job job) {
        String name = job.request().reservation();
        return name.isEmpty() ? null : find(name);
    }

    private Set<String> closedByOthers(Job job, Reservation own, long from, long to) {
        Set<String> closed = new HashSet<>();
        for (Reservation r : current) {
            if (r == own || !r.overlaps(from, to) || r.partial()) {
                // A partial-node reservation closes no node: carve() keeps its cores.
                continue;
            }
            closed.addAll(r.nodes());
        }
        return closed;
    }

    /**
     * How long after a reservation begins Slurm 22.05 has marked its nodes: its periodic pass
     * does it within a few seconds (compat 143-145 saw it after 2 to 5), and until then a job
     * kept off a MAINT reservation's nodes is not yet "Reserved for maintenance" (compat 110).
     */
    static final long MARKED_AFTER_SECONDS = 5;

    /**
     * The reason a job waits when only reserved nodes ({@code closed}) kept it from starting, as
     * Slurm 22.05 words it: "ReqNodeNotAvail, Reserved for maintenance" when some are in a MAINT
     * reservation whose nodes are marked (compat 161, whether or not the job names them); else
     * for a node the job names, "ReqNodeNotAvail, May be reserved for other job"; otherwise the
     * text of its WAIT_NODE_NOT_AVAIL.
     */
    JobReason reason(boolean namedNodeReserved, Set<String> closed, long now) {
        return reason(namedNodeReserved, false, closed, now);
    }

    /**
     * {@link #reason}; {@code magnetic}: a MAGNETIC reservation would let the job in but it fits
     * neither there nor outside, which Slurm 22.05 words as for a named node (compat 202).
     */
    JobReason reason(boolean namedNodeReserved, boolean magnetic, Set<String> closed, long now) {
        for (Reservation r : current) {
            if (r.has(ReservationFlag.MAINT)
                    && r.active(now)
                    && now >= r.start() + MARKED_AFTER_SECONDS
                    && !java.util.Collections.disjoint(r.nodes(), closed)) {
                return JobReason.RESERVED_FOR_MAINTENANCE;
            }
        }
        return namedNodeReserved || magnetic ? JobReason.MAY_BE_RESERVED : JobReason.NODES_RESERVED;
    }

    /** Start times to try: these and each end of a reservation window within the horizon. */
    List<Long> withEnds(List<Long> times, long now, long horizon) {
        java.util.TreeSet<Long> all = new java.util.TreeSet<>(times);
        for (Reservation r : current) {
            Reservation w = r;
            for (int i = 0; i < 8 && w.end() <= horizon; i++) {
                if (w.end() > now) {
                    all.add(w.end());
                }
                if (!w.repeats()) {
                    break;
                }
                w = w.window(w.end());
            }
        }
        return List.copyOf(all);
    }

    /** What tells two jobs of the same request apart here: the reservation and who they are. */
    String key(Job job) {
        if (current.isEmpty()) {
            return "";
        }
        return job.request().reservation() + "\0" + job.request().owner().userName() + "\0"
                + job.request().account();
    }

    private static boolean permits(Reservation r, Job job) {
        return r.permits(job.request().owner().userName(), job.request().account());
    }

    private Reservation find(String name) {
        for (Reservation r : current) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Capacities as the job may use them beside partial-node reservations holding cores at some
     * moment of {@code [from, to)}: outside one, not its cores (the node's other cores stay
     * free, as Slurm 22.05 runs a job there, compat 162); inside one, only its cores on its
     * nodes. The very map given when no such reservation changes it.
     */
    Map<String, NodeCapacity> carve(Job job, Map<String, NodeCapacity> capacity, long from, long to) {
        return carve(job.request().reservation(), capacity, from, to);
    }

    /** {@link #carve} for a job in the reservation named {@code name} (empty: in none). */
    Map<String, NodeCapacity> carve(String name, Map<String, NodeCapacity> capacity, long from, long to) {
        Map<String, NodeCapacity> out = capacity;
        for (Reservation r : current) {
            if (!r.partial() || !r.overlaps(from, to)) {
                continue;
            }
            boolean inside = r.name().equals(name);
            for (Map.Entry<String, List<Integer>> held : r.cores().entrySet()) {
                NodeCapacity node = out.get(held.getKey());
                if (node == null) {
                    continue;
                }
                List<Integer> taken = new ArrayList<>();
                if (inside) {
                    for (int c : node.freeCores()) {
                        if (!held.getValue().contains(c)) {
                            taken.add(c);
                        }
                    }
                } else {
                    for (int c : held.getValue()) {
                        if (!node.busyCores().contains(c)) {
                            taken.add(c);
                        }
                    }
                }
                if (taken.isEmpty()) {
                    continue;
                }
                if (out == capacity) {
                    out = new LinkedHashMap<>(capacity);
                }
                int cpus = taken.size() * Math.max(1, node.hardware().threadsPerCore());
                out.put(
                        held.getKey(),
                        node.minus(new Allocation.NodeShare(held.getKey(), cpus, 0, 0, List.of(), taken)));
            }
        }
        return out;
    }

    /**
     * Placement on a view carved for one job: not the pass's memo, whose answers hold for every
     * job asking the same of the timeline's own views.
     */
    static PlacementResult place(Partition partition, Map<String, NodeCapacity> capacity, PlacementRequest request) {
        List<NodeCapacity> nodes = new ArrayList<>();
        for (String n : partition.nodes()) {
            NodeCapacity c = capacity.get(n);
            if (c != null) {
                nodes.add(c);
            }
        }
        return Allocator.place(nodes, request);
    }

    /** The request with these nodes left out too. */
    static PlacementRequest without(PlacementRequest p, Set<String> closed) {
        if (closed.isEmpty()) {
            return p;
        }
        Set<String> excluded = new HashSet<>(p.excludedNodes());
        excluded.addAll(closed);
        return p.withNodes(p.nodes().withExcluded(excluded));
    }
}
