package dev.sluice.cli.command.sdiag;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.GetStatisticsResponse;
import dev.sluice.protocol.v1.RpcCount;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** sdiag's report laid out as real Slurm 22.05 printed it (read off the real command). */
class TestSdiagReport {
    private static final long NOW = 1796426891L;

    @Test
    void aFreshControllerPrintsNoMeansAndNoBackfillDetail() {
        GetStatisticsResponse s = GetStatisticsResponse.newBuilder()
                .setRequestTime(NOW)
                .setSince(NOW - 4)
                .setServerThreads(3)
                .setJobStatesTime(NOW - 4)
                .build();
        String text = SdiagReport.render(s, ZoneOffset.UTC, SdiagReport.Order.COUNT, 24);
        assertThat(text).startsWith("""
                        *******************************************************
                        sdiag output at Fri Dec 04 23:28:11 2026 (1796426891)
                        Data since      Fri Dec 04 23:28:07 2026 (1796426887)
                        *******************************************************
                        Server thread count:  3
                        Agent queue size:     0
                        Agent count:          0
                        Agent thread count:   0
                        DBD Agent queue size: 0

                        Jobs submitted: 0
                        Jobs started:   0
                        Jobs completed: 0
                        Jobs canceled:  0
                        Jobs failed:    0

                        Job states ts:  Fri Dec 04 23:28:07 2026 (1796426887)
                        Jobs pending:   0
                        Jobs running:   0

                        Main schedule statistics (microseconds):
                        \tLast cycle:   0
                        \tMax cycle:    0
                        \tTotal cycles: 0
                        \tLast queue length: 0

                        Backfilling stats
                        \tTotal backfilled jobs (since last slurm start): 0
                        \tTotal backfilled jobs (since last stats cycle start): 0
                        \tTotal backfilled heterogeneous job components: 0
                        \tTotal cycles: 0
                        \tLast cycle when: N/A
                        \tLast cycle: 0
                        \tMax cycle:  0
                        \tLast depth cycle: 0
                        \tLast depth cycle (try sched): 0
                        \tLast queue length: 0
                        \tLast table size: 0

                        Latency for 1000 calls to gettimeofday(): 24 microseconds

                        Remote Procedure Call statistics by message type
                        """).endsWith("""
                        Remote Procedure Call statistics by user

                        Pending RPC statistics
                        \tNo pending RPCs
                        """);
    }

    @Test
    void countedCyclesAddMeansAndRpcLinesAreAlignedAsSlurms() {
        GetStatisticsResponse s = GetStatisticsResponse.newBuilder()
                .setRequestTime(NOW)
                .setSince(NOW - 306)
                .setCycles(8)
                .setCycleLastMicros(85)
                .setCycleMaxMicros(387)
                .setCycleSumMicros(520)
                .setLastQueueLength(2)
                .setBackfillCycles(3)
                .setBackfillLastWhen(NOW - 5)
                .setBackfillLastMicros(184)
                .setBackfillMaxMicros(1698)
                .setBackfillSumMicros(2058)
                .setBackfillLastDepth(2)
                .setBackfillLastDepthTry(2)
                .setBackfillDepthSum(4)
                .setBackfillDepthTrySum(4)
                .setBackfillLastQueueLength(2)
                .setBackfillQueueLengthSum(4)
                .setBackfillLastTableSize(4)
                .setBackfillTableSizeSum(9)
                .addByType(rpc("REQUEST_SHARE_INFO", 2022, 12, 47356))
                .addByType(rpc("REQUEST_SUBMIT_BATCH_JOB", 4003, 4, 3866))
                .addByUser(RpcCount.newBuilder()
                        .setUserName("sluiceuser1")
                        .setUserId(1001)
                        .setCount(1)
                        .setTotalMicros(10259))
                .build();
        String text = SdiagReport.render(s, ZoneOffset.UTC, SdiagReport.Order.COUNT, 24);
        assertThat(text)
                .contains("""
                        \tTotal cycles: 8
                        \tMean cycle:   65
                        \tMean depth cycle:  0
                        \tCycles per minute: 1
                        \tLast queue length: 2
                        """)
                .contains("""
                        \tMean cycle: 686
                        \tLast depth cycle: 2
                        \tLast depth cycle (try sched): 2
                        \tDepth Mean: 1
                        \tDepth Mean (try depth): 1
                        \tLast queue length: 2
                        \tQueue length mean: 1
                        \tLast table size: 4
                        \tMean table size: 3
                        """)
                .contains(
                        "\tREQUEST_SHARE_INFO                      ( 2022) count:12     ave_time:3946   total_time:47356\n")
                .contains("\tsluiceuser1     (    1001) count:1      ave_time:10259  total_time:10259\n");
        assertThat(text.indexOf("REQUEST_SHARE_INFO")).isLessThan(text.indexOf("REQUEST_SUBMIT_BATCH_JOB"));
        String byId = SdiagReport.render(s, ZoneOffset.UTC, SdiagReport.Order.ID, 24);
        assertThat(byId.indexOf("REQUEST_SHARE_INFO")).isLessThan(byId.indexOf("REQUEST_SUBMIT_BATCH_JOB"));
        String byMean = SdiagReport.render(s, ZoneOffset.UTC, SdiagReport.Order.AVERAGE_TIME, 24);
        assertThat(byMean.indexOf("REQUEST_SUBMIT_BATCH_JOB")).isGreaterThan(byMean.indexOf("REQUEST_SHARE_INFO"));
    }

    private static RpcCount rpc(String name, int type, long count, long micros) {
        return RpcCount.newBuilder()
                .setName(name)
                .setType(type)
                .setCount(count)
                .setTotalMicros(micros)
                .build();
    }
}
