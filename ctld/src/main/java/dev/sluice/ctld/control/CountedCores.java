package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Reservation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cores a {@code NodeCnt=N CoreCnt=...} reservation holds, counted as Slurm 22.05 counts them
 * (reservation.c {@code _pick_nodes_ordered}, {@code _pick_node_cnt}; select/cons_tres
 * {@code _sequential_pick}; compat 290-291), quirks included, since {@code scontrol show res}
 * shows the result:
 *
 * <ul>
 *   <li>N above the nodes free of other reservations is cut down to them ({@code NodeCnt=3} on two
 *       nodes holds two);
 *   <li>one count C over N &gt; 1 nodes is {@code max(C / N, 1)} cores per node, and a node with
 *       more cores free than that takes {@code C - N * (C / N)} more while that is positive; but
 *       what it took is subtracted with its sign reversed, so every later node with more free
 *       takes all it has ({@code NodeCnt=2 CoreCnt=3} on idle 4-core nodes holds n1's cores 0-1
 *       and all of n2's, {@code CoreCnt=6});
 *   <li>several counts, or one over one node, are a count per node: each node in turn with that
 *       many cores free takes them, N aside; more counts than nodes, or too few nodes with the
 *       cores free, is {@code Requested nodes are busy};
 *   <li>running jobs' cores are not free (unless IGNORE_JOBS), and a node one job fills is not a
 *       candidate at all (too few candidates left is busy); other partial reservations' cores are
 *       not free either.
 * </ul>
 */
final class CountedCores {
    private CountedCores() {}

    /**
     * {@code template} (window, flags, partition) holding {@code nodeCount} nodes' {@code counts}
     * of cores from {@code candidates} (the partition's nodes in order that no other reservation
     * holds whole then); a count 0 ends the list. Nothing held is {@code Requested nodes are busy}.
     */
    static Reservation hold(
            ClusterView state, Reservation template, int nodeCount, List<Integer> counts, List<String> candidates) {
        List<String> nodes = new ArrayList<>();
        Map<String, Set<Integer>> cores = new HashMap<>();
        // Slurm's outer loop runs over the node counts (NodeCnt= is one) and the core counts
        // together; a round after the first asks for no nodes, only the cores of its count, from
        // the nodes not yet picked.
        for (int i = 0; ; i++) {
            int remainNodes = i == 0 ? nodeCount : 0;
            if (remainNodes == 0 && countAt(counts, i) == 0) {
                break;
            }
            List<String> left =
                    candidates.stream().filter(n -> !nodes.contains(n)).toList();
            if (left.isEmpty()) {
                continue;
            }
            Pick pick = pickNodeCount(state, template, remainNodes, counts, left);
            nodes.addAll(pick.nodes().keySet());
            pick.nodes()
                    .forEach((n, ids) ->
                            cores.computeIfAbsent(n, k -> new TreeSet<>()).addAll(ids));
            pick.passedOver()
                    .forEach((n, ids) ->
                            cores.computeIfAbsent(n, k -> new TreeSet<>()).addAll(ids));
        }
        if (nodes.isEmpty()) {
            throw new SlurmException(ErrorCode.NODES_BUSY);
        }
        Map<String, List<Integer>> ordered = new LinkedHashMap<>();
        candidates.stream().filter(cores::containsKey).forEach(n -> ordered.put(n, List.copyOf(cores.get(n))));
        int total = ordered.values().stream().mapToInt(List::size).sum();
        return new Reservation(
                template.name(),
                template.id(),
                template.start(),
                template.end(),
                new Reservation.Holding(
                        candidates.stream().filter(nodes::contains).toList(), template.partition(), total, ordered),
                new Reservation.Access(template.users(), template.usersExcluded(), template.accounts()),
                template.flags());
    }

    /**
     * What one pick took: the nodes and their cores, and the free cores of the nodes it passed over
     * for too few before it was done (select/cons_tres leaves those set in the core bitmap it
     * returns: the reservation holds them and counts them in {@code CoreCnt=}, not in its nodes,
     * its {@code CoreIDs=} or {@code TRES=cpu=}; compat 291). Both empty when it could not.
     */
    record Pick(Map<String, List<Integer>> nodes, Map<String, List<Integer>> passedOver) {
        static final Pick NONE = new Pick(Map.of(), Map.of());
    }

    /** {@code _pick_node_cnt}: the candidates left once jobs are set aside, then the pick. */
    private static Pick pickNodeCount(
            ClusterView state, Reservation template, int nodeCount, List<Integer> counts, List<String> avail) {
        int wanted = Math.min(nodeCount, avail.size());
        boolean ignoreJobs = template.has(ReservationFlag.IGNORE_JOBS);
        List<String> usable = new ArrayList<>();
        Map<String, Set<Integer>> taken = new HashMap<>();
        for (String node : avail) {
            Set<Integer> out = new HashSet<>(PartialCores.reservedCores(state, template, node));
            boolean filled = false;
            if (!ignoreJobs) {
                for (List<Integer> cores : jobCores(state, node, template.start())) {
                    out.addAll(cores);
                    filled |= cores.size() >= coresOf(state, node);
                }
            }
            if (!filled) {
                usable.add(node);
                taken.put(node, out);
            }
        }
        if (usable.size() < wanted) {
            return Pick.NONE;
        }
        return sequentialPick(state, usable, wanted, counts, taken);
    }

    /** select/cons_tres {@code _sequential_pick} with core counts. */
    private static Pick sequentialPick(
            ClusterView state,
            List<String> usable,
            int nodeCount,
            List<Integer> counts,
            Map<String, Set<Integer>> taken) {
        int given = 0;
        int total = 0;
        while (given < usable.size() && countAt(counts, given) != 0) {
            total += counts.get(given++);
        }
        int perNode = 0;
        int extra = -1;
        boolean single = false;
        if (nodeCount > 1 && given == 1) {
            perNode = Math.max(total / nodeCount, 1);
            extra = total - perNode * nodeCount;
        } else if (nodeCount == 0 && given == 1) {
            single = true;
        }
        Map<String, List<Integer>> picked = new LinkedHashMap<>();
        Map<String, List<Integer>> passedOver = new LinkedHashMap<>();
        int nodesLeft = nodeCount;
        int offset = 0;
        boolean done = false;
        for (String node : usable) {
            if (done) {
                break;
            }
            List<Integer> free = PartialCores.lowest(state, node, Integer.MAX_VALUE, taken.get(node));
            int c = free.size();
            if (c < (perNode > 0 ? perNode : single ? 0 : countAt(counts, offset))) {
                if (c > 0) {
                    passedOver.put(node, free);
                }
                continue;
            }
            int target;
            if (perNode > 0) {
                if (c > perNode && extra > 0) {
                    target = Math.min(c, perNode + extra);
                    // Slurm's sign: what the node took more is added back, not taken off.
                    extra -= target - c;
                } else {
                    target = perNode;
                }
            } else if (single) {
                target = Math.min(c, total);
                total -= target;
            } else {
                target = countAt(counts, offset);
            }
            if (target > 0) {
                picked.put(node, free.subList(0, target));
                nodesLeft--;
            }
            done = perNode > 0 ? nodesLeft <= 0 : single ? total <= 0 : countAt(counts, ++offset) == 0;
        }
        return done ? new Pick(picked, passedOver) : Pick.NONE;
    }

    private static int countAt(List<Integer> counts, int i) {
        return i < counts.size() ? counts.get(i) : 0;
    }

    private static int coresOf(ClusterView state, String name) {
        Node n = state.node(name);
        return n == null ? 0 : n.hardware().cpus() / Math.max(1, n.hardware().threadsPerCore());
    }

    /** Each running job's cores on the node, for jobs that would still run at {@code start}. */
    private static List<List<Integer>> jobCores(ClusterView state, String node, long start) {
        List<List<Integer>> out = new ArrayList<>();
        for (Job job : state.jobs()) {
            if (!job.holdsNodes()) {
                continue;
            }
            long limit = job.terms().timeLimitMinutes();
            if (limit < JobRequest.TIME_NOT_SET && job.run().startTime() + limit * 60 < start) {
                continue;
            }
            for (Allocation.NodeShare s : job.allocation().nodes()) {
                if (s.node().equals(node)) {
                    out.add(s.cores());
                }
            }
        }
        return out;
    }
}
