package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.Reservation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which nodes a reservation holds and whether it may hold them, for create and update alike:
 * {@code Nodes=} as named, {@code NodeCnt=}/{@code CoreCnt=} as picked from a partition, and the
 * two refusals Slurm 22.05 gives ({@code Requested reservation overlaps with another reservation},
 * {@code Requested nodes are busy}).
 */
final class ReservationNodes {
    private ReservationNodes() {}

    /** {@code Nodes=}: every node named must exist; ALL is every node. Sets SPEC_NODES (and ALL_NODES). */
    static List<String> named(ClusterView state, String typed, Set<ReservationFlag> flags) {
        List<String> all = state.nodes().stream().map(Node::name).toList();
        flags.add(ReservationFlag.SPEC_NODES);
        if (typed.equalsIgnoreCase("ALL")) {
            flags.add(ReservationFlag.ALL_NODES);
            return all;
        }
        Set<String> asked;
        try {
            asked = new LinkedHashSet<>(HostList.expand(typed));
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.INVALID_NODE_NAME);
        }
        if (!all.containsAll(asked)) {
            throw new SlurmException(ErrorCode.INVALID_NODE_NAME);
        }
        return all.stream().filter(asked::contains).toList();
    }

    private static Partition partition(ClusterView state, String name) {
        return state.partitions().stream()
                .filter(x -> x.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_PARTITION_NAME));
    }

    /** MAINT and OVERLAP reservations may take nodes another reservation holds. */
    private static boolean mayOverlap(Set<ReservationFlag> flags) {
        return flags.contains(ReservationFlag.MAINT) || flags.contains(ReservationFlag.OVERLAP);
    }

    /**
     * The partition's nodes, in order, that a new partial reservation may take cores of: usable,
     * and held whole by no other reservation over its window (unless MAINT or OVERLAP).
     */
    static List<String> open(
            ClusterView state, String partition, long start, long end, Set<ReservationFlag> flags, long now) {
        Partition p = partition(state, partition);
        boolean mayOverlap = mayOverlap(flags);
        List<String> out = new ArrayList<>();
        for (String node : p.nodes()) {
            Node n = state.node(node);
            if (n == null || !state.view(n).isSchedulable()) {
                continue;
            }
            boolean held = state.reservations().current(now).stream()
                    .anyMatch(r -> !r.partial() && r.nodes().contains(node) && r.overlaps(start, end));
            if (!held || mayOverlap) {
                out.add(node);
            }
        }
        return out;
    }

    /** {@code NodeCnt=}: the first nodes of the partition that nothing else holds then. */
    static List<String> pick(
            ClusterView state,
            String partition,
            int count,
            int cores,
            long start,
            long end,
            Set<ReservationFlag> flags,
            long now,
            String self,
            List<String> skip) {
        Partition p = partition(state, partition);
        boolean mayOverlap = mayOverlap(flags);
        List<String> out = new ArrayList<>();
        int got = 0;
        for (String node : p.nodes()) {
            if (cores > 0 ? got >= cores : out.size() == count) {
                break;
            }
            Node n = state.node(node);
            if (n == null || skip.contains(node) || !state.view(n).isSchedulable()) {
                continue;
            }
            boolean held = state.reservations().current(now).stream()
                    .anyMatch(r -> !r.name().equals(self) && r.nodes().contains(node) && r.overlaps(start, end));
            if (held && !mayOverlap) {
                continue;
            }
            if (!flags.contains(ReservationFlag.IGNORE_JOBS) && busy(state, List.of(node), start, now)) {
                continue;
            }
            out.add(node);
            got += n.hardware().cpus() / n.hardware().threadsPerCore();
        }
        if (cores > 0 ? got < cores : out.size() < count || count == 0) {
            throw new SlurmException(ErrorCode.NODES_BUSY);
        }
        return out;
    }

    static int cores(ClusterView state, List<String> nodes) {
        int cores = 0;
        for (String name : nodes) {
            Node n = state.node(name);
            if (n != null) {
                cores += n.hardware().cpus() / n.hardware().threadsPerCore();
            }
        }
        return cores;
    }

    /**
     * Whether another reservation holds one of its nodes at a time it does (MAINT, OVERLAP may).
     * A new one is checked against every other, one of its own name too (Slurm answers "overlaps"
     * for a second {@code r1} on {@code r1}'s nodes); an update against all but itself.
     */
    static boolean overlapsAnother(ClusterView state, Reservation r, long now, boolean update) {
        if (r.has(ReservationFlag.MAINT) || r.has(ReservationFlag.OVERLAP)) {
            return false;
        }
        for (Reservation other : state.reservations().current(now)) {
            if (update && other.name().equals(r.name())) {
                continue;
            }
            if (other.partial()) {
                // Its cores are not free to another partial one (PartialCores); a whole one may
                // still take its node (Slurm 22.05, compat 259).
                continue;
            }
            boolean shared = other.nodes().stream().anyMatch(r.nodes()::contains);
            if (shared && (other.overlaps(r.start(), r.end()) || r.overlaps(other.start(), other.end()))) {
                return true;
            }
        }
        return false;
    }

    /** Whether a job runs on one of the nodes and would still run at {@code start}. */
    static boolean busy(ClusterView state, List<String> nodes, long start, long now) {
        for (Job job : state.jobs()) {
            if (!job.isRunning()) {
                continue;
            }
            long limit = job.terms().timeLimitMinutes();
            long end = limit >= dev.sluice.ctld.state.JobRequest.TIME_NOT_SET
                    ? Long.MAX_VALUE
                    : job.run().startTime() + limit * 60;
            if (end <= start) {
                continue;
            }
            if (job.allocation().nodeNames().stream().anyMatch(nodes::contains)) {
                return true;
            }
        }
        return false;
    }
}
