package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobReason;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Soft: what the last scheduling pass said of the pending jobs ({@link ClusterImage.QueueFacts}:
 * reasons, expected starts and nodes, priorities, details). Kept apart from
 * {@link ClusterState}'s durable tables because it is never journaled: each pass replaces it
 * whole and a restart starts it empty. The facts are immutable, so images share them.
 */
final class QueueView {
    private ClusterImage.QueueFacts facts = ClusterImage.QueueFacts.NONE;
    // Jobs that left the queue since the last image: their reasons go at the next one.
    private final Set<Integer> noLongerPending = new HashSet<>();

    void set(ClusterImage.QueueFacts latest) {
        facts = latest;
        noLongerPending.clear();
    }

    void noLongerPending(int jobId) {
        noLongerPending.add(jobId);
    }

    JobReason reason(Job job) {
        return ClusterImage.reasonOf(job, facts.pendingReasons());
    }

    long priority(int jobId) {
        return facts.priorities().getOrDefault(jobId, 0L);
    }

    Map<Integer, Long> priorities() {
        return facts.priorities();
    }

    /** The facts for an image: the reasons of the jobs still pending only. */
    ClusterImage.QueueFacts facts() {
        if (!noLongerPending.isEmpty()) {
            Map<Integer, JobReason> still = new HashMap<>(facts.pendingReasons());
            still.keySet().removeAll(noLongerPending);
            facts = facts.withPendingReasons(still);
            noLongerPending.clear();
        }
        return facts;
    }
}
