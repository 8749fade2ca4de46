package dev.sluice.ctld.sched;

import dev.sluice.ctld.state.Allocation;
import java.util.List;
import java.util.Map;

/**
 * What one scheduling pass decided: jobs to start now, and why every other pending job waits.
 * A value; the controller loop turns starts into journaled records and launches.
 */
public record SchedulePlan(List<Start> starts, Map<Integer, String> pendingReasons) {
    public SchedulePlan {
        starts = List.copyOf(starts);
        pendingReasons = Map.copyOf(pendingReasons);
    }

    public record Start(int jobId, Allocation allocation, String partition, long timeLimitMinutes) {}
}
