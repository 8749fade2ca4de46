package dev.sluice.cli.command.sdiag;

import dev.sluice.protocol.v1.GetStatisticsResponse;
import dev.sluice.protocol.v1.RpcCount;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** sdiag's report, laid out as Slurm 22.05 prints it (read off the real command). Pure. */
public final class SdiagReport {
    /** How the RPC lists are ordered: by count (default), {@code -i} id, {@code -t} total, {@code -T} mean time. */
    public enum Order {
        COUNT,
        ID,
        TOTAL_TIME,
        AVERAGE_TIME
    }

    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss yyyy", Locale.US);
    private static final String STARS = "*******************************************************";

    private SdiagReport() {}

    /**
     * @param latencyMicros what 1000 readings of the clock took here, in microseconds
     */
    public static String render(GetStatisticsResponse s, ZoneId zone, Order order, long latencyMicros) {
        StringBuilder b = new StringBuilder();
        b.append(STARS).append('\n');
        b.append("sdiag output at ").append(when(s.getRequestTime(), zone)).append('\n');
        b.append("Data since      ").append(when(s.getSince(), zone)).append('\n');
        b.append(STARS).append('\n');
        b.append("Server thread count:  ").append(s.getServerThreads()).append('\n');
        b.append("Agent queue size:     ").append(s.getAgentQueue()).append('\n');
        b.append("Agent count:          0\n");
        b.append("Agent thread count:   0\n");
        b.append("DBD Agent queue size: ").append(s.getDbdAgentQueue()).append("\n\n");
        b.append("Jobs submitted: ").append(s.getJobsSubmitted()).append('\n');
        b.append("Jobs started:   ").append(s.getJobsStarted()).append('\n');
        b.append("Jobs completed: ").append(s.getJobsCompleted()).append('\n');
        b.append("Jobs canceled:  ").append(s.getJobsCanceled()).append('\n');
        b.append("Jobs failed:    ").append(s.getJobsFailed()).append("\n\n");
        b.append("Job states ts:  ").append(when(s.getJobStatesTime(), zone)).append('\n');
        b.append("Jobs pending:   ").append(s.getJobsPending()).append('\n');
        b.append("Jobs running:   ").append(s.getJobsRunning()).append("\n\n");
        b.append("Main schedule statistics (microseconds):\n");
        b.append("\tLast cycle:   ").append(s.getCycleLastMicros()).append('\n');
        b.append("\tMax cycle:    ").append(s.getCycleMaxMicros()).append('\n');
        b.append("\tTotal cycles: ").append(s.getCycles()).append('\n');
        if (s.getCycles() > 0) {
            b.append("\tMean cycle:   ")
                    .append(s.getCycleSumMicros() / s.getCycles())
                    .append('\n');
            b.append("\tMean depth cycle:  ")
                    .append(s.getDepthSum() / s.getCycles())
                    .append('\n');
        }
        long minutes = (s.getRequestTime() - s.getSince()) / 60;
        if (minutes > 0) {
            b.append("\tCycles per minute: ").append(s.getCycles() / minutes).append('\n');
        }
        b.append("\tLast queue length: ").append(s.getLastQueueLength()).append("\n\n");
        backfill(b, s, zone);
        b.append("Latency for 1000 calls to gettimeofday(): ")
                .append(latencyMicros)
                .append(" microseconds\n\n");
        b.append("Remote Procedure Call statistics by message type\n");
        for (RpcCount c : sorted(s.getByTypeList(), order, RpcCount::getType)) {
            b.append(String.format(
                    Locale.ROOT,
                    "\t%-40s(%5d) count:%-6d ave_time:%-6d total_time:%d%n",
                    c.getName(),
                    c.getType(),
                    c.getCount(),
                    c.getTotalMicros() / Math.max(1, c.getCount()),
                    c.getTotalMicros()));
        }
        b.append("\nRemote Procedure Call statistics by user\n");
        for (RpcCount c : sorted(s.getByUserList(), order, RpcCount::getUserId)) {
            b.append(String.format(
                    Locale.ROOT,
                    "\t%-15s (%8d) count:%-6d ave_time:%-6d total_time:%d%n",
                    c.getUserName(),
                    c.getUserId(),
                    c.getCount(),
                    c.getTotalMicros() / Math.max(1, c.getCount()),
                    c.getTotalMicros()));
        }
        b.append("\nPending RPC statistics\n\tNo pending RPCs\n");
        return b.toString();
    }

    private static void backfill(StringBuilder b, GetStatisticsResponse s, ZoneId zone) {
        b.append("Backfilling stats\n");
        b.append("\tTotal backfilled jobs (since last slurm start): ")
                .append(s.getBackfilledJobs())
                .append('\n');
        b.append("\tTotal backfilled jobs (since last stats cycle start): ")
                .append(s.getBackfilledSinceCycle())
                .append('\n');
        b.append("\tTotal backfilled heterogeneous job components: 0\n");
        int n = s.getBackfillCycles();
        b.append("\tTotal cycles: ").append(n).append('\n');
        b.append("\tLast cycle when: ")
                .append(n == 0 ? "N/A" : when(s.getBackfillLastWhen(), zone))
                .append('\n');
        b.append("\tLast cycle: ").append(s.getBackfillLastMicros()).append('\n');
        b.append("\tMax cycle:  ").append(s.getBackfillMaxMicros()).append('\n');
        if (n > 0) {
            b.append("\tMean cycle: ").append(s.getBackfillSumMicros() / n).append('\n');
        }
        b.append("\tLast depth cycle: ").append(s.getBackfillLastDepth()).append('\n');
        b.append("\tLast depth cycle (try sched): ")
                .append(s.getBackfillLastDepthTry())
                .append('\n');
        if (n > 0) {
            b.append("\tDepth Mean: ").append(s.getBackfillDepthSum() / n).append('\n');
            b.append("\tDepth Mean (try depth): ")
                    .append(s.getBackfillDepthTrySum() / n)
                    .append('\n');
        }
        b.append("\tLast queue length: ").append(s.getBackfillLastQueueLength()).append('\n');
        if (n > 0) {
            b.append("\tQueue length mean: ")
                    .append(s.getBackfillQueueLengthSum() / n)
                    .append('\n');
        }
        b.append("\tLast table size: ").append(s.getBackfillLastTableSize()).append('\n');
        if (n > 0) {
            b.append("\tMean table size: ")
                    .append(s.getBackfillTableSizeSum() / n)
                    .append('\n');
        }
        b.append('\n');
    }

    private static List<RpcCount> sorted(
            List<RpcCount> counts, Order order, java.util.function.ToLongFunction<RpcCount> id) {
        List<RpcCount> out = new ArrayList<>(counts);
        Comparator<RpcCount> c = switch (order) {
            case COUNT -> Comparator.comparingLong(r -> -r.getCount());
            case ID -> Comparator.comparingLong(id);
            case TOTAL_TIME -> Comparator.comparingLong(r -> -r.getTotalMicros());
            case AVERAGE_TIME -> Comparator.comparingLong(r -> -(r.getTotalMicros() / Math.max(1, r.getCount())));
        };
        out.sort(c);
        return out;
    }

    /** A time stamp as sdiag and sacctmgr show stats print it: the date, then the epoch in parentheses. */
    public static String when(long epochSeconds, ZoneId zone) {
        return CTIME.format(Instant.ofEpochSecond(epochSeconds).atZone(zone)) + " (" + epochSeconds + ")";
    }
}
