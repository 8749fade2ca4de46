package dev.sluice.ctld.loop;

import dev.sluice.ctld.control.SoftChange;
import dev.sluice.ctld.state.ClusterState;

/**
 * Applies a decided {@link SoftChange} to the state: with replay the only way state changes,
 * and like replay done by the controller loop alone (tests driving handlers without a loop
 * use it too, so they apply exactly what the loop would).
 */
public final class SoftState {
    private SoftState() {}

    public static void apply(ClusterState state, SoftChange change) {
        switch (change) {
            case SoftChange.NodeHeard h -> state.heard(h.node(), h.time());
            case SoftChange.NodeSilent s -> state.silent(s.node());
            case SoftChange.JobIdUsed u -> state.reserveJobIdsBelow(u.jobId() + 1);
            case SoftChange.WarnSignalSent w -> state.warnSignalSent(w.jobId(), w.startTime());
            case SoftChange.PartitionUpdated p -> state.updatePartition(p.partition());
            case SoftChange.JobCompleting c -> state.completing(c.jobId(), c.node(), c.completing());
            case SoftChange.BatchEndWaits w -> state.batchEndWaits(w.jobId());
            case SoftChange.Reconfigured r -> state.reconfigure(r.nodes(), r.partitions(), r.memberships());
            case SoftChange.StepsChanged c -> state.setSteps(c.jobId(), c.steps());
            case SoftChange.StepsForgotten f -> state.setSteps(f.jobId(), null);
            case SoftChange.QueueViewed q -> state.setQueueView(q.facts());
        }
    }
}
