package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobReason;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Soft: what the last scheduling pass said of the pending jobs (reasons, expected starts,
 * priorities, details). Kept apart from {@link ClusterState}'s durable tables because it is
 * never journaled: each pass replaces it whole and a restart starts it empty. Each map is
 * immutable, so images share it.
 */
final class QueueView {
    private Map<Integer, JobReason> pendingReasons = Map.of();
    private Map<Integer, Long> expectedStarts = Map.of();
    private Map<Integer, Long> priorities = Map.of();
    private Map<Integer, String> details = Map.of();
    // Jobs that left the queue since the last image: their reasons go at the next one.
    private final Set<Integer> noLongerPending = new HashSet<>();

    void set(
            Map<Integer, JobReason> reasons,
            Map<Integer, Long> starts,
            Map<Integer, Long> prio,
            Map<Integer, String> why) {
        pendingReasons = Map.copyOf(reasons);
        expectedStarts = Map.copyOf(starts);
        priorities = dev.sluice.ctld.queue.BasicPriorities.immutable(prio);
        details = Map.copyOf(why);
        noLongerPending.clear();
    }

    void noLongerPending(int jobId) {
        noLongerPending.add(jobId);
    }

    JobReason reason(Job job) {
        return ClusterImage.reasonOf(job, pendingReasons);
    }

    long priority(int jobId) {
        return priorities.getOrDefault(jobId, 0L);
    }

    /** The reasons of the jobs still pending, for an image. */
    Map<Integer, JobReason> reasons() {
        if (!noLongerPending.isEmpty()) {
            Map<Integer, JobReason> still = new HashMap<>(pendingReasons);
            still.keySet().removeAll(noLongerPending);
            pendingReasons = Map.copyOf(still);
            noLongerPending.clear();
        }
        return pendingReasons;
    }

    Map<Integer, Long> expectedStarts() {
        return expectedStarts;
    }

    Map<Integer, Long> priorities() {
        return priorities;
    }

    Map<Integer, String> details() {
        return details;
    }
}
