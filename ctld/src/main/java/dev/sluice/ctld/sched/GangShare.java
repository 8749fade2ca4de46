package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where a job of a partition that shares cores ({@code OverSubscribe=FORCE:N}, or {@code YES:N}
 * for jobs that ask with {@code --oversubscribe}; gang scheduling on) may go on cores its
 * partition's sharing jobs already have: a core is given to at most N of them. Memory and
 * devices are not shared (a suspended job stays in memory). Where one of those jobs runs on the
 * cores it gets, the job starts suspended and waits for its turn: Slurm 22.05's gang scheduler
 * lets the running job finish its slice (compat 211), then {@link GangSlices} hands the cores on.
 */
final class GangShare {
    private GangShare() {}

    /**
     * Where the job goes, whether a job of its gang runs on some of those cores now, so that it
     * starts suspended ({@code waits}), and the jobs whose cores it gets ({@code meets}): none of
     * them may be given to yet another job in the same pass, which counts from what was there
     * before it.
     */
    record Shared(Allocation allocation, boolean waits, Set<Integer> meets) {}

    /**
     * The job's allocation on shared cores and whether it waits there for its turn, or empty
     * when sharing does not give it room.
     *
     * @param turns this pass's gang turns: who holds its cores once they are taken
     * @param chosen jobs this pass already suspends or preempts: not suspended again
     */
    static Optional<Shared> plan(
            ClusterImage image,
            Job job,
            Partition partition,
            PlacementRequest request,
            Map<String, NodeCapacity> capacity,
            GangSlices.Turns turns,
            Set<Integer> chosen) {
        int shares = partition.scheduling().sharesPerCore(job.request());
        if (shares < 2 || request.exclusive()) {
            return Optional.empty();
        }
        List<Job> members = new ArrayList<>();
        Map<String, Map<Integer, Integer>> load = new HashMap<>();
        for (Job other : image.jobs()) {
            if (other.allocation() != null
                    && other.terms().partition().equals(partition.name())
                    && (other.status().state() == JobState.RUNNING || GangSlices.lent(other))) {
                if (partition.scheduling().sharesPerCore(other.request()) < 2) {
                    // It asked for no sharing: its cores are its own.
                    continue;
                }
                members.add(other);
                for (Allocation.NodeShare s : other.allocation().nodes()) {
                    Map<Integer, Integer> cores = load.computeIfAbsent(s.node(), k -> new HashMap<>());
                    s.cores().forEach(c -> cores.merge(c, 1, Integer::sum));
                }
            }
        }
        Map<String, NodeCapacity> freed = new HashMap<>();
        for (Job m : members) {
            for (Allocation.NodeShare held : m.allocation().nodes()) {
                // Node by node: a job over two nodes whose cores on one are given N times
                // already still lends those on the other (compat 240).
                if (!roomBeside(held, load, shares)) {
                    continue;
                }
                // Its cores and CPUs only: its memory and devices stay its own.
                Allocation.NodeShare share =
                        new Allocation.NodeShare(held.node(), held.cpus(), 0, held.tasks(), List.of(), held.cores());
                NodeCapacity base = freed.getOrDefault(share.node(), capacity.get(share.node()));
                if (base != null) {
                    freed.put(share.node(), base.plus(share));
                }
            }
        }
        if (freed.isEmpty()) {
            return Optional.empty();
        }
        List<NodeCapacity> nodes = new ArrayList<>();
        for (String n : partition.nodes()) {
            NodeCapacity c = freed.getOrDefault(n, capacity.get(n));
            if (c != null) {
                nodes.add(freed.containsKey(n) ? byCores(c) : c);
            }
        }
        if (!(Allocator.place(nodes, request) instanceof PlacementResult.Placed placed)) {
            return Optional.empty();
        }
        Allocation allocation = placed.allocation();
        Map<String, java.util.Set<Integer>> mine = new HashMap<>();
        GangSlices.occupy(mine, allocation);
        boolean waits = false;
        Set<Integer> meets = new java.util.HashSet<>();
        for (Job m : members) {
            if (GangSlices.free(mine, m.allocation())) {
                continue;
            }
            if (chosen.contains(m.id())) {
                // Preempted, or shared by a job started in this very pass: the cores change hands
                // next pass.
                return Optional.empty();
            }
            meets.add(m.id());
            // Running, or resumed by this pass: the job waits for its turn.
            waits |= turns.holds(m);
        }
        return Optional.of(new Shared(allocation, waits, Set.copyOf(meets)));
    }

    /**
     * The node with as many CPUs free as it has cores no job holds: jobs that share cores count
     * each core once, where summing their CPUs would count it for each of them.
     */
    private static NodeCapacity byCores(NodeCapacity c) {
        int cpus = c.freeCores().size() * Math.max(1, c.hardware().threadsPerCore());
        return new NodeCapacity(
                c.name(),
                c.hardware(),
                cpus,
                c.freeMemoryMb(),
                c.idle(),
                c.schedulable(),
                c.features(),
                c.weight(),
                c.gres(),
                c.busyCores());
    }

    /** Whether every core of {@code held} is given to fewer than {@code shares} jobs. */
    private static boolean roomBeside(Allocation.NodeShare held, Map<String, Map<Integer, Integer>> load, int shares) {
        if (held.cores().isEmpty()) {
            return false;
        }
        Map<Integer, Integer> cores = load.getOrDefault(held.node(), Map.of());
        for (int c : held.cores()) {
            if (cores.getOrDefault(c, 0) >= shares) {
                return false;
            }
        }
        return true;
    }
}
