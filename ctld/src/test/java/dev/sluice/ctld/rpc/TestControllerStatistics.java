package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.sched.CycleFacts;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.GetStatisticsResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** sdiag's counters: from the records the loop journals, its passes and the requests served. */
class TestControllerStatistics {
    private static final long NOW = 1_000_000;

    private static ClusterState cluster() {
        return ClusterFixture.aCluster().configured();
    }

    @Test
    void jobsAreCountedFromTheJournaledRecordsAndResetCountsAfresh() {
        ClusterState s = cluster();
        ControllerStatistics stats = new ControllerStatistics(NOW - 60);
        long seq = 0;
        for (JobState end : List.of(JobState.COMPLETED, JobState.FAILED, JobState.CANCELLED, JobState.NODE_FAIL)) {
            int id = s.nextJobId();
            StateRecord submitted = new StateRecord.JobSubmitted(id, aJob().build(), "p", 10, NOW);
            s.replay(++seq, submitted);
            stats.applied(seq, submitted, s);
            if (end != JobState.CANCELLED) {
                StateRecord started = new StateRecord.JobStarted(
                        id, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 10, NOW);
                s.replay(++seq, started);
                stats.applied(seq, started, s);
            }
            StateRecord ended = new StateRecord.JobEnded(id, end, 0, JobReason.NONE, NOW, -1);
            s.replay(++seq, ended);
            stats.applied(seq, ended, s);
        }
        GetStatisticsResponse r = stats.snapshot(NOW, s.image(), 0);
        assertThat(r.getJobsSubmitted()).isEqualTo(4);
        assertThat(r.getJobsStarted()).isEqualTo(3);
        // A job that ran to its end is completed whatever its exit (Slurm 22.05, compat 119).
        assertThat(r.getJobsCompleted()).isEqualTo(2);
        assertThat(r.getJobsCanceled()).isEqualTo(1);
        assertThat(r.getJobsFailed()).isEqualTo(1);
        assertThat(r.getSince()).isEqualTo(NOW - 60);
        stats.reset(NOW);
        GetStatisticsResponse after = stats.snapshot(NOW + 5, s.image(), 3);
        assertThat(after.getJobsSubmitted()).isZero();
        assertThat(after.getSince()).isEqualTo(NOW);
        assertThat(after.getDbdAgentQueue()).isEqualTo(3);
    }

    @Test
    void requestsAreCountedByMessageTypeAndUserMostCalledFirst() {
        ControllerStatistics stats = new ControllerStatistics(NOW);
        for (int i = 0; i < 3; i++) {
            stats.begin();
            stats.served("GET_JOBS", false, 0, "root", 2_000);
        }
        stats.begin();
        stats.served("SUBMIT_BATCH_JOB", true, 1001, "sluiceuser1", 5_000);
        stats.begin();
        stats.served("RESET_STATISTICS", false, 0, "root", 1_000);
        GetStatisticsResponse r = stats.snapshot(NOW, cluster().image(), 0);
        assertThat(r.getByTypeList())
                .extracting(c -> c.getName() + "(" + c.getType() + ")=" + c.getCount() + "/" + c.getTotalMicros())
                .containsExactly("REQUEST_JOB_INFO(2003)=3/6", "REQUEST_RESOURCE_ALLOCATION(4001)=1/5");
        assertThat(r.getByUserList())
                .extracting(c -> c.getUserName() + "(" + c.getUserId() + ")=" + c.getCount())
                .containsExactly("root(0)=3", "sluiceuser1(1001)=1");
        assertThat(r.getServerThreads()).isEqualTo(1);
    }

    @Test
    void aPassThatLeftAJobWaitingIsABackfillCycle() {
        ClusterState s = cluster();
        int big = s.nextJobId();
        s.replay(1, new StateRecord.JobSubmitted(big, aJob().tasks(8).build(), "p", 10, NOW));
        int small = s.nextJobId();
        s.replay(2, new StateRecord.JobSubmitted(small, aJob().build(), "p", 10, NOW));
        SchedulePlan plan = new SchedulePlan(
                List.of(new SchedulePlan.Start(
                        small, -1, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 10, false)),
                List.of(),
                List.of(),
                Map.of(big, JobReason.RESOURCES),
                Map.of(big, NOW + 600),
                Map.of(big, 100L, small, 50L),
                Map.of(),
                Map.of(),
                List.of(),
                List.of());
        CycleFacts facts = CycleFacts.of(s.image(), plan);
        assertThat(facts).isEqualTo(new CycleFacts(2, 2, true, 1, 1, 2));
        ControllerStatistics stats = new ControllerStatistics(NOW);
        stats.scheduleCycle(3_000_000, NOW, facts);
        stats.scheduleCycle(1_000_000, NOW + 1, new CycleFacts(0, 0, false, 0, 0, 1));
        GetStatisticsResponse r = stats.snapshot(NOW + 2, s.image(), 0);
        assertThat(r.getCycles()).isEqualTo(2);
        assertThat(r.getCycleMaxMicros()).isEqualTo(3000);
        assertThat(r.getCycleLastMicros()).isEqualTo(1000);
        assertThat(r.getBackfillCycles()).isEqualTo(1);
        assertThat(r.getBackfilledJobs()).isEqualTo(1);
        assertThat(r.getBackfillLastWhen()).isEqualTo(NOW);
        assertThat(r.getJobsPending()).isEqualTo(2);
        stats.reset(NOW + 3);
        // sdiag -r is an explicit reset, which zeroes Slurm's backfilled_jobs too (only its
        // midnight reset keeps it; compat 151 recorded 0 after sdiag -r).
        assertThat(stats.snapshot(NOW + 3, s.image(), 0).getBackfilledJobs()).isZero();
    }
}
