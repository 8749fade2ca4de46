package dev.sluice.ctld.state;

import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresPool;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What running jobs hold on each node — CPUs, memory, a job count, devices and cores — kept as
 * jobs start and end rather than summed over the job table for every view. Part of
 * {@link ClusterState}, derived from its jobs: rebuilt by replay, never journaled itself.
 */
final class NodeUsage {
    private static final class Held {
        int cpus;
        long memoryMb;
        int jobs;
        GresPool gres;
        CoreSet cores = CoreSet.EMPTY;
        // How many running jobs hold each core: more than one where jobs of partitions of one
        // tier share cores (PreemptMode=GANG, compat 166). Each such core counts once.
        final Map<Integer, Integer> holders = new HashMap<>();
        int sharedCores;
        long lastBusy;
        // Cores of jobs suspended by preemption, with how many such jobs hold each.
        Map<Integer, Integer> lent = Map.of();
    }

    private final Map<String, Held> byNode = new HashMap<>();

    /**
     * A job's allocation starts ({@code sign} +1) or ends (-1) holding its shares.
     *
     * @param time when, epoch seconds: a node left with no job was last busy then (Slurm's
     *     LastBusyTime: the end of its last job, not the start of the next); 0 changes no such time
     *     (a job that ended earlier lets go of nodes its processes were still being killed on)
     */
    void account(Allocation allocation, int sign, Function<String, Node> nodes, long time) {
        for (Allocation.NodeShare share : allocation.nodes()) {
            Held held = byNode.computeIfAbsent(share.node(), k -> new Held());
            held.cpus += sign * share.cpus();
            held.memoryMb += sign * share.memoryMb();
            held.jobs += sign;
            if (sign < 0 && held.jobs == 0 && time > 0) {
                held.lastBusy = time;
            }
            if (!share.gres().isEmpty()) {
                held.gres = pool(held, nodes.apply(share.node())).plus(share.gres(), sign);
            }
            if (!share.cores().isEmpty()) {
                hold(held, share.cores(), sign);
            }
        }
    }

    /** Counts the cores' holders: a core is free again only when its last holder lets go. */
    private static void hold(Held held, java.util.List<Integer> cores, int sign) {
        Map<Integer, Integer> next = held.holders;
        for (int core : cores) {
            int before = next.getOrDefault(core, 0);
            int after = before + sign;
            held.sharedCores += Math.max(0, after - 1) - Math.max(0, before - 1);
            if (after <= 0) {
                next.remove(core);
            } else {
                next.put(core, after);
            }
        }
        held.cores = sign > 0 ? held.cores.with(cores) : CoreSet.of(next.keySet());
    }

    /**
     * What a job's move between two records does to its nodes' usage: its shares count as
     * allocated while it holds them, and are lent while it runs without holding them (suspended
     * by preemption, its preemptor holds them).
     *
     * @param time as for {@link #account}: when a node let go of counts as last busy; 0 for none
     */
    void moved(Job before, Job after, Function<String, Node> nodes, long time) {
        boolean held = before.holdsNodes();
        boolean holds = after.holdsNodes();
        boolean lent = before.isRunning() && !held;
        boolean lends = after.isRunning() && !holds;
        if (held && !holds) {
            account(before.allocation(), -1, nodes, time);
        }
        if (lent && !lends) {
            lend(before.allocation(), -1);
        }
        if (lends && !lent) {
            lend(after.allocation(), +1);
        }
        if (holds && !held) {
            account(after.allocation(), +1, nodes, time);
        }
    }

    /**
     * A job suspended by preemption lends its cores to its preemptor ({@code sign} +1) or has
     * them back, resumed or ended (-1): they count as allocated only where no running job holds
     * them ({@link NodeView#lentCpus}).
     */
    void lend(Allocation allocation, int sign) {
        for (Allocation.NodeShare share : allocation.nodes()) {
            Held held = byNode.computeIfAbsent(share.node(), k -> new Held());
            Map<Integer, Integer> next = new HashMap<>(held.lent);
            for (int core : share.cores()) {
                next.merge(core, sign, Integer::sum);
            }
            next.values().removeIf(n -> n <= 0);
            held.lent = Map.copyOf(next);
        }
    }

    /**
     * A daemon registered the node at {@code time}: Slurm counts an idle node as last busy then
     * (observed: LastBusyTime equal to SlurmdStartTime on a fresh cluster).
     */
    void registered(String node, long time) {
        Held held = byNode.computeIfAbsent(node, k -> new Held());
        if (held.jobs == 0 && time > 0) {
            held.lastBusy = time;
        }
    }

    /** A deleted node: what it held is gone with it. */
    void forget(String node) {
        Held held = byNode.get(node);
        if (held != null) {
            held.gres = null;
            held.cores = CoreSet.EMPTY;
            held.holders.clear();
            held.sharedCores = 0;
        }
    }

    NodeView view(Node node, boolean responding) {
        Held held = byNode.get(node.name());
        if (held == null) {
            return new NodeView(node, 0, 0, 0, responding, GresPool.idle(node.gres()), CoreSet.EMPTY, 0, 0);
        }
        int lentCores = 0;
        for (int core : held.lent.keySet()) {
            if (!held.cores.contains(core)) {
                lentCores++;
            }
        }
        int threads = Math.max(1, node.hardware().threadsPerCore());
        int lentCpus = lentCores * threads;
        return new NodeView(
                node,
                held.cpus - held.sharedCores * threads,
                held.memoryMb,
                held.jobs,
                responding,
                pool(held, node),
                held.cores,
                held.lastBusy,
                lentCpus);
    }

    private static GresPool pool(Held held, Node node) {
        if (held.gres != null) {
            return held.gres;
        }
        return GresPool.idle(node == null ? GresInventory.NONE : node.gres());
    }
}
