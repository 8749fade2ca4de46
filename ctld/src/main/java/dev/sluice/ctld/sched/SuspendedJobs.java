package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.state.Allocation;
import java.util.Map;

/**
 * Jobs suspended by preemption ({@code PreemptMode=SUSPEND,GANG}), as the scheduler sees them.
 * Such a job lends its cores, CPUs and devices to its preemptor, which holds them on the nodes;
 * it gets them back, the very same ones, when they are free again, as Slurm's gang scheduler
 * resumes a suspended job once no job of a higher tier uses its resources.
 */
final class SuspendedJobs {
    /** A suspended job keeps its resources from other jobs with no end in sight. */
    static final long KEPT_UNTIL = Long.MAX_VALUE;

    private SuspendedJobs() {}

    /**
     * Whether every share of {@code allocation} is free in {@code capacity}: its node is up, its
     * cores and devices are held by no job, its CPU and memory counts fit.
     */
    static boolean free(Allocation allocation, Map<String, NodeCapacity> capacity) {
        for (Allocation.NodeShare share : allocation.nodes()) {
            NodeCapacity node = capacity.get(share.node());
            if (node == null
                    || node.freeCpus() < share.cpus()
                    || node.freeMemoryMb() < share.memoryMb()
                    || !node.gres().canTake(share.gres())) {
                return false;
            }
            for (int core : share.cores()) {
                if (node.busyCores().contains(core)) {
                    return false;
                }
            }
        }
        return true;
    }
}
