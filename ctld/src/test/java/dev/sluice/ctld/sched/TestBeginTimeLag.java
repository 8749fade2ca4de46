package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestBeginTimeLag {
    private static final long NOW = 1_000_000;

    @Test
    void aPassOnTheClockAloneLeavesBeginTimeWhereTheJobStillCannotStart() {
        ClusterFixture cluster = ClusterFixture.idle(1, 1, NOW);
        ClusterState state = cluster.state();
        int running = state.nextJobId();
        cluster.replay(new StateRecord.JobSubmitted(running, aJob().build(), "p", 10, NOW - 20));
        cluster.replay(new StateRecord.JobStarted(
                running, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 10, NOW - 20));
        int begun = state.nextJobId();
        cluster.replay(new StateRecord.JobSubmitted(begun, aJob().begin(NOW - 1).build(), "p", 10, NOW - 10));
        int waiting = state.nextJobId();
        cluster.replay(new StateRecord.JobSubmitted(waiting, aJob().build(), "p", 10, NOW - 10));
        // What the pass before the begin time said of them.
        state.setQueueView(ClusterImage.QueueFacts.NONE.withPendingReasons(
                Map.of(begun, JobReason.BEGIN_TIME, waiting, JobReason.PRIORITY)));

        Map<Integer, JobReason> fresh = new Scheduler(SchedulerConfig.builder(Scheduler.SelectDefaults.DEFAULT)
                        .build())
                .schedule(state.image(), NOW)
                .pendingReasons();
        assertThat(fresh.get(begun)).isNotEqualTo(JobReason.BEGIN_TIME);

        Map<Integer, JobReason> kept = BeginTimeLag.keep(fresh, state.image());
        assertThat(kept).containsEntry(begun, JobReason.BEGIN_TIME).containsEntry(waiting, fresh.get(waiting));
    }

    @Test
    void slurmPassesOnAChangeOrEvery30SecondsFromTheStart() {
        long started = 100;
        assertThat(BeginTimeLag.slurmWouldPass(false, started, 125, 129)).isFalse();
        assertThat(BeginTimeLag.slurmWouldPass(false, started, 129, 130)).isTrue();
        assertThat(BeginTimeLag.slurmWouldPass(false, started, 130, 131)).isFalse();
        assertThat(BeginTimeLag.slurmWouldPass(false, started, 101, 161)).isTrue();
        assertThat(BeginTimeLag.slurmWouldPass(true, started, 125, 126)).isTrue();
    }
}
