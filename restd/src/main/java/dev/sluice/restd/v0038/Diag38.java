package dev.sluice.restd.v0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetStatisticsRequest;
import dev.sluice.protocol.v1.GetStatisticsResponse;
import dev.sluice.protocol.v1.RpcCount;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Reply;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code GET diag}: the controller's statistics, as sdiag asks for them, in slurmrestd 22.05's
 * flat {@code statistics} object (compat 151): plain numbers, means computed over the cycles
 * counted (0 before the first), RPC lists by count, most first, as sdiag sorts them.
 */
final class Diag38 {
    private Diag38() {}

    static Reply diag(ControllerSession controller, Clock clock) throws ControllerException {
        GetStatisticsResponse s = controller
                .call(ClientRequest.newBuilder().setGetStatistics(GetStatisticsRequest.getDefaultInstance()))
                .getGetStatistics();
        Envelope38 out = new Envelope38();
        ObjectNode st = out.body().putObject("statistics");
        ArrayNode byType = st.putArray("rpcs_by_message_type");
        for (RpcCount c : byCount(s.getByTypeList())) {
            byType.addObject()
                    .put("message_type", c.getName())
                    .put("type_id", c.getType())
                    .put("count", c.getCount())
                    .put("average_time", mean(c.getTotalMicros(), c.getCount()))
                    .put("total_time", c.getTotalMicros());
        }
        ArrayNode byUser = st.putArray("rpcs_by_user");
        for (RpcCount c : byCount(s.getByUserList())) {
            byUser.addObject()
                    .put("user", c.getUserName())
                    .put("user_id", c.getUserId())
                    .put("count", c.getCount())
                    .put("average_time", mean(c.getTotalMicros(), c.getCount()))
                    .put("total_time", c.getTotalMicros());
        }
        // slurmctld 22.05 sends 1 (compat 151); the controller's statistics have no counterpart.
        st.put("parts_packed", 1);
        st.put("req_time", s.getRequestTime());
        st.put("req_time_start", s.getSince());
        st.put("server_thread_count", s.getServerThreads());
        st.put("agent_queue_size", s.getAgentQueue());
        // The controller keeps no agent threads of slurmctld's kind (sdiag prints 0 too).
        st.put("agent_count", 0);
        st.put("agent_thread_count", 0);
        st.put("dbd_agent_queue_size", s.getDbdAgentQueue());
        st.put("gettimeofday_latency", latencyMicros(clock));
        int cycles = s.getCycles();
        st.put("schedule_cycle_max", s.getCycleMaxMicros());
        st.put("schedule_cycle_last", s.getCycleLastMicros());
        st.put("schedule_cycle_total", cycles);
        st.put("schedule_cycle_mean", mean(s.getCycleSumMicros(), cycles));
        st.put("schedule_cycle_mean_depth", mean(s.getDepthSum(), cycles));
        long minutes = (s.getRequestTime() - s.getSince()) / 60;
        st.put("schedule_cycle_per_minute", minutes > 0 ? cycles / minutes : 0);
        st.put("schedule_queue_length", s.getLastQueueLength());
        st.put("jobs_submitted", s.getJobsSubmitted());
        st.put("jobs_started", s.getJobsStarted());
        st.put("jobs_completed", s.getJobsCompleted());
        st.put("jobs_canceled", s.getJobsCanceled());
        st.put("jobs_failed", s.getJobsFailed());
        st.put("jobs_pending", s.getJobsPending());
        st.put("jobs_running", s.getJobsRunning());
        st.put("job_states_ts", s.getJobStatesTime());
        int bf = s.getBackfillCycles();
        st.put("bf_backfilled_jobs", s.getBackfilledJobs());
        st.put("bf_last_backfilled_jobs", s.getBackfilledSinceCycle());
        st.put("bf_backfilled_het_jobs", 0);
        st.put("bf_cycle_counter", bf);
        st.put("bf_cycle_mean", mean(s.getBackfillSumMicros(), bf));
        st.put("bf_depth_mean", mean(s.getBackfillDepthSum(), bf));
        st.put("bf_depth_mean_try", mean(s.getBackfillDepthTrySum(), bf));
        st.put("bf_cycle_last", s.getBackfillLastMicros());
        st.put("bf_cycle_max", s.getBackfillMaxMicros());
        st.put("bf_queue_len", s.getBackfillLastQueueLength());
        st.put("bf_queue_len_mean", mean(s.getBackfillQueueLengthSum(), bf));
        st.put("bf_table_size", s.getBackfillLastTableSize());
        st.put("bf_table_size_mean", mean(s.getBackfillTableSizeSum(), bf));
        st.put("bf_when_last_cycle", bf == 0 ? 0 : s.getBackfillLastWhen());
        // Whether a backfill cycle runs at this moment: the statistics do not carry it, so the
        // answer is slurmctld's between cycles.
        st.put("bf_active", false);
        return out.reply(200);
    }

    private static long mean(long sum, long n) {
        return n == 0 ? 0 : sum / n;
    }

    private static List<RpcCount> byCount(List<RpcCount> counts) {
        List<RpcCount> out = new ArrayList<>(counts);
        out.sort(Comparator.comparingLong(r -> -r.getCount()));
        return out;
    }

    /** What 1000 readings of the clock take here, as slurmrestd measures gettimeofday(). */
    private static long latencyMicros(Clock clock) {
        long start = System.nanoTime();
        long sink = 0;
        for (int i = 0; i < 1000; i++) {
            sink += clock.millis();
        }
        long took = System.nanoTime() - start;
        return sink == Long.MIN_VALUE ? 0 : took / 1000;
    }
}
