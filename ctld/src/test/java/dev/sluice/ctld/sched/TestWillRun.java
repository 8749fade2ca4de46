package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.SoftChange;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code sbatch --test-only}: the scheduler's own answer for a job that is not submitted. */
class TestWillRun {
    private static final long NOW = 1_000_000;
    private static final Scheduler.SelectDefaults SELECT = Scheduler.SelectDefaults.DEFAULT;
    private static final SchedulerConfig CONFIG =
            SchedulerConfig.builder(SELECT).reservationDepth(1).build();

    private ClusterState state;
    private ClusterFixture cluster;

    @BeforeEach
    void cluster() {
        cluster = ClusterFixture.idle(2, 4, NOW);
        state = cluster.state();
    }

    private int running(JobRequest request, String node, int cpus, long limitMinutes, long startedAgo) {
        int id = state.nextJobId();
        cluster.replay(new StateRecord.JobSubmitted(id, request, "p", limitMinutes, NOW - startedAgo));
        cluster.replay(new StateRecord.JobStarted(
                id,
                new Allocation(List.of(Allocation.NodeShare.of(node, cpus, 0, 1))),
                "p",
                limitMinutes,
                NOW - startedAgo));
        return id;
    }

    private Optional<WillRun.Estimate> estimate(JobRequest request, long limitMinutes) {
        Job candidate = Job.submitted(state.nextJobId(), request, "p", limitMinutes, NOW);
        return WillRun.estimate(CONFIG, state.image(), candidate, NOW);
    }

    @Test
    void onAnIdleClusterTheJobStartsNow() {
        WillRun.Estimate e = estimate(aJob().nodes(2).tasks(8).build(), 60).orElseThrow();
        assertThat(e.startTime()).isEqualTo(NOW);
        assertThat(e.allocation().totalCpus()).isEqualTo(8);
        assertThat(e.allocation().nodeNames()).containsExactly("n1", "n2");
        assertThat(e.partition()).isEqualTo("p");
    }

    @Test
    void aJobWithABeginTimeStartsThen() {
        WillRun.Estimate e = estimate(aJob().begin(NOW + 3600).build(), 60).orElseThrow();
        assertThat(e.startTime()).isEqualTo(NOW + 3600);
    }

    @Test
    void onABusyClusterItStartsWhenTheRunningJobsEnd() {
        running(aJob().cpusPerTask(4).build(), "n1", 4, 10, 60);
        running(aJob().cpusPerTask(4).build(), "n2", 4, 30, 60);
        WillRun.Estimate e = estimate(aJob().build(), 60).orElseThrow();
        // n1's job ends 10 minutes after its start, a minute ago.
        assertThat(e.startTime()).isEqualTo(NOW - 60 + 600);
        assertThat(e.allocation().nodeNames()).containsExactly("n1");
    }

    @Test
    void pendingJobsAheadKeepTheirPlace() {
        running(aJob().cpusPerTask(4).build(), "n1", 4, 10, 60);
        running(aJob().cpusPerTask(4).build(), "n2", 4, 30, 60);
        // A two-node job already waits: it takes both nodes when n2 frees at +29 min, for an hour.
        int wide = state.nextJobId();
        cluster.replay(
                new StateRecord.JobSubmitted(wide, aJob().nodes(2).tasks(8).build(), "p", 60, NOW - 30));
        WillRun.Estimate e = estimate(aJob().build(), 60).orElseThrow();
        assertThat(e.startTime()).isEqualTo(NOW - 60 + 30 * 60 + 60 * 60);
        // Nothing was submitted: the state holds the same jobs.
        assertThat(state.jobs()).hasSize(3);
    }

    @Test
    void testOnlyUsesUpAJobIdButSubmitsNothing() {
        JobControl jobs = JobControl.builder(SELECT).build();
        int next = state.nextJobId();
        ControlResult<JobControl.TestOnly> ok = jobs.testOnly(state, aJob().build(), NOW);
        assertThat(ok.records()).isEmpty();
        assertThat(ok.softChanges()).containsExactly(new SoftChange.JobIdUsed(next));
        assertThat(ok.response().job().jobId()).isEqualTo(next);

        ControlResult<JobControl.TestOnly> impossible =
                jobs.testOnly(state, aJob().nodes(9).build(), NOW);
        assertThat(impossible.response().refusal().code()).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        assertThat(impossible.softChanges()).containsExactly(new SoftChange.JobIdUsed(next));

        ControlResult<JobControl.TestOnly> badPartition =
                jobs.testOnly(state, aJob().partition("nope").build(), NOW);
        assertThat(badPartition.response().refusal().code()).isEqualTo(ErrorCode.INVALID_PARTITION_NAME);
        assertThat(badPartition.softChanges()).isEmpty();
    }
}
