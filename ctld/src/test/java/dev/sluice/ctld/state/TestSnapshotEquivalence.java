package dev.sluice.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A snapshot (the state as records) replays into the same image as the full history. */
class TestSnapshotEquivalence {
    private static ClusterState fresh() {
        return ClusterFixture.aCluster().nodes(2).configured();
    }

    /**
     * {@code history} replayed into {@code live}, and a fresh state restored from the snapshot
     * records {@code live} writes: checked to show the same image, and returned.
     */
    private static ClusterState restoredAfter(ClusterState live, List<StateRecord> history) {
        long seq = 0;
        for (StateRecord r : history) {
            live.replay(++seq, r);
        }
        ClusterState restored = fresh();
        for (StateRecord r : live.toRecords()) {
            restored.restore(seq, r);
        }
        restored.reserveJobIdsBelow(live.nextJobId());
        assertThat(restored.image()).isEqualTo(live.image());
        return restored;
    }

    @Test
    void replayingTheSnapshotGivesTheSameImage() {
        ClusterState live = fresh();
        List<StateRecord> history = List.of(
                new StateRecord.NodeRegistered(
                        "n1",
                        new NodeEndpoint("h1", "10.0.0.1", 7001),
                        new NodeEquipment(NodeHardware.ofCpus(4, 1000), List.of(), ""),
                        new DaemonReport(5, "v", NodeFacts.NONE),
                        false,
                        10),
                new StateRecord.JobSubmitted(1, Builders.aJob().build(), "p", 60, 11),
                new StateRecord.JobSubmitted(2, Builders.aJob().name("b").build(), "p", 60, 12),
                new StateRecord.JobSubmitted(3, Builders.aJob().build(), "p", 60, 13),
                new StateRecord.JobStarted(
                        1, new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 1))), "p", 60, 14),
                new StateRecord.JobStarted(
                        2, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 60, 15),
                StateRecord.JobEnded.unrequested(2, JobState.FAILED, 256, JobReason.NON_ZERO_EXIT_CODE, 16),
                // Only a job that ran can be requeued (JobLifecycle).
                new StateRecord.JobStarted(
                        3, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 60, 16),
                StateRecord.JobRequeued.at(3, 17),
                new StateRecord.NodeStateChanged("n2", NodeTransition.DRAIN, "disk", "root", 18),
                new StateRecord.JobSubmitted(4, Builders.aJob().build(), "p", 60, 19),
                // Its Prolog failed: requeued with Slurm's launch failure reason, held.
                new StateRecord.JobStarted(
                        4, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 60, 19),
                StateRecord.JobRequeued.launchFailed(4, 19),
                new StateRecord.JobHoldChanged(4, Job.Hold.ADMIN, 19),
                new StateRecord.JobsPurged(List.of(2), 20));
        ClusterState restored = restoredAfter(live, history);
        assertThat(restored.nextJobId()).isEqualTo(5);
        assertThat(restored.image().node("n1").orElseThrow().allocCpus()).isEqualTo(2);
    }

    /**
     * A job held because its reservation was forgotten keeps, across a restart, the hold and the
     * name it says was deleted; released (before or after the restart) it names none (compat 255).
     */
    @Test
    void aDeletedReservationsHoldSurvivesTheSnapshotAndItsReleaseForgetsTheName() {
        ClusterState live = fresh();
        List<StateRecord> history = List.of(
                new StateRecord.JobSubmitted(1, Builders.aJob().reservation("r").build(), "p", 60, 11),
                new StateRecord.JobSubmitted(2, Builders.aJob().reservation("r").build(), "p", 60, 12),
                new StateRecord.JobHoldChanged(1, Job.Hold.RESV_DEL, 30),
                new StateRecord.JobHoldChanged(2, Job.Hold.RESV_DEL, 30),
                new StateRecord.JobHoldChanged(2, Job.Hold.NONE, 31));
        ClusterState restored = restoredAfter(live, history);
        Job held = restored.image().job(1).orElseThrow();
        assertThat(held.terms().hold()).isEqualTo(Job.Hold.RESV_DEL);
        assertThat(held.request().reservation()).isEqualTo("r");
        assertThat(held.standingReason()).isEqualTo(JobReason.RESERVATION_DELETED);
        Job released = restored.image().job(2).orElseThrow();
        assertThat(released.terms().hold()).isEqualTo(Job.Hold.NONE);
        assertThat(released.request().reservation()).isEmpty();

        restored.replay(history.size() + 1, new StateRecord.JobHoldChanged(1, Job.Hold.NONE, 40));
        assertThat(restored.image().job(1).orElseThrow().request().reservation())
                .isEmpty();
    }
}
