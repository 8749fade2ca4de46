package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.gres.GresPool;
import java.util.ArrayList;
import java.util.List;

/**
 * A node as readers see it: its durable record, what running jobs hold on it, and whether it
 * responds. The base state and flags are derived here, the way Slurm prints them.
 *
 * @param busyCores the cores running jobs hold (allocations recorded before cores were tracked
 *     count in {@code allocCpus} only)
 */
public record NodeView(
        Node node,
        int allocCpus,
        long allocMemoryMb,
        int runningJobs,
        boolean responding,
        GresPool gres,
        CoreSet busyCores) {
    public NodeView {
        requireNonNull(node, "node is null");
        requireNonNull(gres, "gres is null");
        requireNonNull(busyCores, "busyCores is null");
    }

    public NodeView(Node node, int allocCpus, long allocMemoryMb, int runningJobs, boolean responding, GresPool gres) {
        this(node, allocCpus, allocMemoryMb, runningJobs, responding, gres, CoreSet.EMPTY);
    }

    public String name() {
        return node.name();
    }

    public int freeCpus() {
        return node.hardware().cpus() - allocCpus;
    }

    public long freeMemoryMb() {
        return node.hardware().realMemoryMb() - allocMemoryMb;
    }

    /** Slurm's base state: FUTURE, DOWN, UNKNOWN (never registered), ALLOCATED, MIXED, IDLE. */
    public String baseState() {
        if (node.future()) {
            return "FUTURE";
        }
        if (node.down()) {
            return "DOWN";
        }
        if (allocCpus >= node.hardware().cpus() && runningJobs > 0) {
            return "ALLOCATED";
        }
        if (allocCpus > 0 || runningJobs > 0) {
            return "MIXED";
        }
        return node.registered() ? "IDLE" : "UNKNOWN";
    }

    public List<String> flags() {
        List<String> flags = new ArrayList<>();
        if (node.drain()) {
            flags.add("DRAIN");
        }
        if (node.dynamic()) {
            flags.add("DYNAMIC_NORM");
        }
        if (!responding && !node.future()) {
            flags.add("NOT_RESPONDING");
        }
        return flags;
    }

    /** May new work be placed here now? */
    public boolean isSchedulable() {
        return responding && node.registered() && !node.down() && !node.drain() && !node.future();
    }
}
