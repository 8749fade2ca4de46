package dev.sluice.ctld.state;

import dev.sluice.ctld.gres.GresGrant;
import java.util.List;

/** A job step's part of one node: its tasks (global ids), CPUs and devices. */
public record StepShare(String node, int nodeId, List<Integer> taskIds, int cpus, List<GresGrant> gres) {
    public StepShare {
        taskIds = List.copyOf(taskIds);
        gres = List.copyOf(gres);
    }
}
