package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.common.slurm.NodeStatus;
import dev.sluice.ctld.gres.GresPool;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A node as readers see it: its durable record, what running jobs hold on it, and whether it
 * responds. The base state and flags are derived here, the way Slurm prints them.
 *
 * @param busyCores the cores running jobs hold (allocations recorded before cores were tracked
 *     count in {@code allocCpus} only)
 * @param lastBusyTime Slurm's LastBusyTime: when the node last became free of jobs, else when it
 *     registered; epoch seconds, 0 if neither happened
 * @param lentCpus CPUs of jobs suspended by preemption whose cores no running job holds: not
 *     free for new work (the scheduler keeps them for their jobs), and shown as allocated, as
 *     Slurm 22.05 shows a node whose 4-CPU job a 1-CPU preemptor suspended ({@code CPUAlloc=4})
 */
public record NodeView(
        Node node,
        int allocCpus,
        long allocMemoryMb,
        int runningJobs,
        boolean responding,
        GresPool gres,
        CoreSet busyCores,
        long lastBusyTime,
        int lentCpus) {
    public NodeView {
        requireNonNull(node, "node is null");
        requireNonNull(gres, "gres is null");
        requireNonNull(busyCores, "busyCores is null");
    }

    public String name() {
        return node.name();
    }

    public int freeCpus() {
        return node.hardware().cpus() - allocCpus;
    }

    /** CPUAlloc as Slurm shows it: running jobs' CPUs and the suspended ones' they do not cover. */
    public int shownAllocCpus() {
        return allocCpus + lentCpus;
    }

    public long freeMemoryMb() {
        return node.hardware().realMemoryMb() - allocMemoryMb;
    }

    /** Slurm's base state: FUTURE, DOWN, UNKNOWN (never registered), ALLOCATED, MIXED, IDLE. */
    public NodeState baseState() {
        if (node.admin().future()) {
            return NodeState.FUTURE;
        }
        if (node.admin().down()) {
            return NodeState.DOWN;
        }
        if (shownAllocCpus() >= node.hardware().cpus() && runningJobs > 0) {
            return NodeState.ALLOCATED;
        }
        if (shownAllocCpus() > 0 || runningJobs > 0) {
            return NodeState.MIXED;
        }
        return node.registered() ? NodeState.IDLE : NodeState.UNKNOWN;
    }

    /** The flags Slurm prints after the base state. */
    public List<NodeFlag> flags() {
        List<NodeFlag> flags = new ArrayList<>();
        if (node.admin().drain()) {
            flags.add(NodeFlag.DRAIN);
        }
        if (node.dynamic()) {
            flags.add(NodeFlag.DYNAMIC_NORM);
        }
        if (!responding && !node.admin().future()) {
            flags.add(NodeFlag.NOT_RESPONDING);
        }
        return flags;
    }

    /** Base state and flags together, named as sinfo and scontrol name them. */
    public NodeStatus status() {
        return new NodeStatus(baseState(), Set.copyOf(flags()));
    }

    /** May new work be placed here now? */
    public boolean isSchedulable() {
        return responding
                && node.registered()
                && !node.admin().down()
                && !node.admin().drain()
                && !node.admin().future();
    }
}
