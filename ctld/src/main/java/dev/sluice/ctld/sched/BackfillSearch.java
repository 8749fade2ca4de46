package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Partition;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Backfill's look ahead within one scheduling pass: for a job that cannot start now, the
 * earliest time it fits within the window, where its resources are then held on the pass's
 * timeline so that later jobs may start now only where they do not delay it. Lives for one pass
 * on the controller thread.
 */
final class BackfillSearch {
    private final SchedulerConfig config;
    private final AvailabilityTimeline timeline;
    private final ReservationFence fence;
    private final PlacementMemo memo;
    private final long now;
    // Where the last search for a shape ended: its time, or MAX_VALUE for none.
    private final Map<Scheduler.SearchKey, Long> searched = new HashMap<>();
    /** When each job held for is expected to start. */
    final Map<Integer, Long> expected = new HashMap<>();
    /** What each job held for is to get then. */
    final Map<Integer, Allocation> reserved = new HashMap<>();

    private int held;

    BackfillSearch(
            SchedulerConfig config,
            AvailabilityTimeline timeline,
            ReservationFence fence,
            PlacementMemo memo,
            long now) {
        this.config = config;
        this.timeline = timeline;
        this.fence = fence;
        this.memo = memo;
        this.now = now;
    }

    /** How many jobs hold resources ahead so far (bf_max_job_test counts them). */
    int held() {
        return held;
    }

    /**
     * Finds the earliest time the job fits and holds those resources for it. Within a pass
     * what is free at any time only shrinks (starts and reservations take, nothing gives
     * back), so a job asking what an earlier one asked (same partition, request and time
     * limit) cannot fit before the time that one got, nor at all if it got none: its search
     * starts there. A deep queue of a few job shapes then costs a few searches, not one
     * per job over the same rejected times.
     */
    void reserve(Job job, Partition partition, PlacementRequest request) {
        Scheduler.SearchKey key =
                new Scheduler.SearchKey(partition.name(), request, Scheduler.endOf(now, job) - now, fence.key(job));
        long from = searched.getOrDefault(key, now);
        if (from == Long.MAX_VALUE) {
            return;
        }
        List<Long> times = timeline.candidateStarts(now, now + config.windowSeconds(), Scheduler.MAX_CANDIDATE_TIMES);
        if (!fence.isEmpty()) {
            times = fence.withEnds(times, now, now + config.windowSeconds());
        }
        for (long t : times) {
            if (t < from || !fence.isEmpty() && fence.over(job, t)) {
                continue;
            }
            long end = Scheduler.endOf(t, job);
            Set<String> closed = fence.isEmpty() ? Set.of() : fence.closed(job, t, end);
            if (!Collections.disjoint(request.requiredNodes(), closed)) {
                continue;
            }
            PlacementRequest at = ReservationFence.without(request, closed);
            if (!timeline.room(
                            t,
                            end,
                            partition.name(),
                            partition.nodes(),
                            !request.gres().isEmpty())
                    .admits(at)) {
                continue;
            }
            Map<String, NodeCapacity> view = timeline.capacityFor(t, end);
            Map<String, NodeCapacity> carved = fence.isEmpty() ? view : fence.carve(job, view, t, end);
            PlacementResult r = carved != view
                    ? ReservationFence.place(partition, carved, at)
                    : memo.place(partition, view, timeline.version(), at);
            if (r instanceof PlacementResult.Placed placed) {
                timeline.reserve(placed.allocation(), t, end);
                expected.put(job.id(), t);
                reserved.put(job.id(), placed.allocation());
                held++;
                searched.put(key, t);
                return;
            }
        }
        searched.put(key, Long.MAX_VALUE);
    }
}
