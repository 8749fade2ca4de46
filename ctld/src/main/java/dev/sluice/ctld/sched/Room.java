package dev.sluice.ctld.sched;

import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.gres.GresMatcher;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;

/**
 * Free CPUs and GPUs, summed over nodes; a node never counts below zero. A value of its own
 * (not part of {@link AvailabilityTimeline}) because the scheduler uses it to skip start times
 * with too little room in all, before asking the timeline for a view.
 */
record Room(long cpus, long gpus) {
    static final Room NONE = new Room(0, 0);

    static Room of(NodeCapacity n) {
        long gpus = n.gres().inventory().named("gpu").isEmpty() ? 0 : GresMatcher.freeGpus(n.gres(), "");
        return new Room(Math.max(0, n.freeCpus()), gpus);
    }

    Room plus(Room o) {
        return new Room(cpus + o.cpus, gpus + o.gpus);
    }

    /** Every task holds at least its CPUs, and every node and task its GPUs. */
    boolean admits(PlacementRequest r) {
        GresDemand d = r.gres();
        long gpus = Math.max(d.gpusPerJob(), d.gpusOnNode(0) * Math.max(1, r.minNodes()) + d.gpusPerTask() * r.tasks());
        return cpus >= (long) r.tasks() * r.cpusPerTask() && this.gpus >= gpus;
    }
}
