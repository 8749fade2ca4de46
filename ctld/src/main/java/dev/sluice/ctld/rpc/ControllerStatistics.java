package dev.sluice.ctld.rpc;

import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.MessageType;
import dev.sluice.ctld.loop.JournalObserver;
import dev.sluice.ctld.loop.LoopTimings;
import dev.sluice.ctld.sched.CycleFacts;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.GetStatisticsResponse;
import dev.sluice.protocol.v1.RpcCount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * sdiag's numbers, counted where the controller does the work: jobs from the records the loop
 * journals (never from a replayed journal), scheduling cycles from the loop's passes, requests
 * by message type and user from the client API that serves them. Reset by {@code sdiag -r}.
 * Thread-safe: the loop thread and the request threads tell it, sdiag reads it.
 */
public final class ControllerStatistics implements LoopTimings, JournalObserver {
    private record Key(String name, int type, int uid, String user) {}

    private static final class Calls {
        long count;
        long micros;
    }

    private long since;
    private int submitted;
    private int started;
    private int completed;
    private int canceled;
    private int failed;
    private long cycleLast;
    private long cycleMax;
    private int cycles;
    private long cycleSum;
    private long depthSum;
    private int lastQueue;
    private int backfilledTotal;
    private int backfilledSinceCycle;
    private int bfCycles;
    private long bfWhen;
    private long bfLast;
    private long bfMax;
    private long bfSum;
    private int bfLastDepth;
    private long bfDepthSum;
    private int bfLastQueue;
    private long bfQueueSum;
    private int bfLastTable;
    private long bfTableSum;
    private final Map<Key, Calls> byType = new LinkedHashMap<>();
    private final Map<Key, Calls> byUser = new LinkedHashMap<>();
    private int inFlight;

    /** @param since epoch seconds the counting starts from (the controller's start) */
    public ControllerStatistics(long since) {
        this.since = since;
    }

    /** sdiag -r: everything back to zero, counting again from {@code now}. */
    public synchronized void reset(long now) {
        since = now;
        submitted = started = completed = canceled = failed = 0;
        cycleLast = cycleMax = cycleSum = depthSum = 0;
        cycles = lastQueue = 0;
        // An explicit reset zeroes the backfilled total as well, as Slurm's does (its periodic
        // reset keeps it, hence "since last slurm start" in sdiag's wording).
        backfilledTotal = 0;
        backfilledSinceCycle = bfCycles = bfLastDepth = bfLastQueue = 0;
        bfWhen = bfLast = bfMax = bfSum = bfDepthSum = bfQueueSum = bfTableSum = 0;
        bfLastTable = 0;
        byType.clear();
        byUser.clear();
    }

    /** A request starts being served (Slurm's server thread count: requests in progress). */
    public synchronized void begin() {
        inFlight++;
    }

    /** A request was served; {@code body} names it as the client API does ({@code GET_JOBS}). */
    public synchronized void served(String body, boolean allocation, int uid, String user, long nanos) {
        inFlight--;
        MessageType.ofRequest(body, allocation).ifPresent(t -> {
            long micros = nanos / 1000;
            add(byType, new Key(t.name(), t.number(), 0, ""), micros);
            add(byUser, new Key("", 0, uid, user), micros);
        });
    }

    private static void add(Map<Key, Calls> map, Key key, long micros) {
        Calls c = map.computeIfAbsent(key, k -> new Calls());
        c.count++;
        c.micros += micros;
    }

    @Override
    public boolean wantsCycles() {
        return true;
    }

    @Override
    public synchronized void scheduleCycle(long nanos, long when, CycleFacts facts) {
        long micros = nanos / 1000;
        cycles++;
        cycleLast = micros;
        cycleMax = Math.max(cycleMax, micros);
        cycleSum += micros;
        depthSum += facts.depth();
        lastQueue = facts.queueLength();
        if (facts.blocked()) {
            bfCycles++;
            bfWhen = when;
            bfLast = micros;
            bfMax = Math.max(bfMax, micros);
            bfSum += micros;
            bfLastDepth = facts.backfillDepth();
            bfDepthSum += facts.backfillDepth();
            bfLastQueue = facts.backfillDepth();
            bfQueueSum += facts.backfillDepth();
            bfLastTable = facts.tableSize();
            bfTableSum += facts.tableSize();
            backfilledTotal += facts.backfilled();
            backfilledSinceCycle += facts.backfilled();
        }
    }

    @Override
    public synchronized void applied(long sequence, StateRecord record, ClusterView state) {
        switch (record) {
            case StateRecord.JobSubmitted s -> submitted++;
            case StateRecord.JobStarted s -> started++;
            case StateRecord.JobEnded e -> {
                // Observed (22.05): a job that ran to its end counts as completed whatever its
                // exit status; failed are the jobs their nodes failed.
                switch (e.state()) {
                    case CANCELLED -> canceled++;
                    case NODE_FAIL, BOOT_FAIL, DEADLINE -> failed++;
                    default -> completed++;
                }
            }
            default -> {}
        }
    }

    @Override
    public void beforeSync() {}

    @Override
    public void synced(long sequence) {}

    /**
     * What sdiag prints, as of {@code now}; pending and running jobs are the image's.
     *
     * @param dbdQueue accounting records not yet taken by sluice-dbd (0 without accounting)
     */
    public synchronized GetStatisticsResponse snapshot(long now, ClusterImage image, int dbdQueue) {
        // From the image's pending and running lists: sdiag (and a benchmark's poll of the
        // accounting queue, 50 a second) must not walk the finished jobs kept for MinJobAge.
        int pending = image.pendingJobs().size();
        int running = 0;
        for (var job : image.runningJobs()) {
            if (job.status().state() == JobState.RUNNING) {
                running++;
            }
        }
        return GetStatisticsResponse.newBuilder()
                .setRequestTime(now)
                .setSince(since)
                .setServerThreads(Math.max(1, inFlight))
                .setDbdAgentQueue(Math.max(0, dbdQueue))
                .setJobsSubmitted(submitted)
                .setJobsStarted(started)
                .setJobsCompleted(completed)
                .setJobsCanceled(canceled)
                .setJobsFailed(failed)
                .setJobsPending(pending)
                .setJobsRunning(running)
                .setJobStatesTime(now)
                .setCycleLastMicros(cycleLast)
                .setCycleMaxMicros(cycleMax)
                .setCycles(cycles)
                .setCycleSumMicros(cycleSum)
                .setDepthSum(depthSum)
                .setLastQueueLength(lastQueue)
                .setBackfilledJobs(backfilledTotal)
                .setBackfilledSinceCycle(backfilledSinceCycle)
                .setBackfillCycles(bfCycles)
                .setBackfillLastWhen(bfWhen)
                .setBackfillLastMicros(bfLast)
                .setBackfillMaxMicros(bfMax)
                .setBackfillSumMicros(bfSum)
                .setBackfillLastDepth(bfLastDepth)
                .setBackfillLastDepthTry(bfLastDepth)
                .setBackfillDepthSum(bfDepthSum)
                .setBackfillDepthTrySum(bfDepthSum)
                .setBackfillLastQueueLength(bfLastQueue)
                .setBackfillQueueLengthSum(bfQueueSum)
                .setBackfillLastTableSize(bfLastTable)
                .setBackfillTableSizeSum(bfTableSum)
                .addAllByType(sorted(byType))
                .addAllByUser(sorted(byUser))
                .build();
    }

    /** Most called first; of equal counts the first called first (as Slurm lists them). */
    private static List<RpcCount> sorted(Map<Key, Calls> map) {
        List<Map.Entry<Key, Calls>> entries = new ArrayList<>(map.entrySet());
        entries.sort(Comparator.comparingLong(e -> -e.getValue().count));
        List<RpcCount> out = new ArrayList<>();
        for (var e : entries) {
            Key k = e.getKey();
            out.add(RpcCount.newBuilder()
                    .setName(k.name())
                    .setType(k.type())
                    .setUserId(k.uid())
                    .setUserName(k.user())
                    .setCount(e.getValue().count)
                    .setTotalMicros(e.getValue().micros)
                    .build());
        }
        return out;
    }
}
