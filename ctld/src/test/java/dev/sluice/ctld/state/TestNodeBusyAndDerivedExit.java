package dev.sluice.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * LastBusyTime (a node's registration, then the end of the job that left it without jobs) and
 * DerivedExitCode (a job's highest step status), both derived from the journal: the same after
 * a snapshot as after the whole history.
 */
class TestNodeBusyAndDerivedExit {
    private static final NodeHardware HW = NodeHardware.ofCpus(4, 1000);

    private static ClusterState fresh() {
        return ClusterFixture.aCluster().configured();
    }

    private static StateRecord start(int job, long time) {
        return new StateRecord.JobStarted(
                job, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 60, time);
    }

    private static StateRecord step(int job, JobState state, int status) {
        return new StateRecord.StepRecorded(
                job, new JobStep(0, "s", state, 30, 40, status, "n1", 1, 1, 1, "cpu=1"), 40);
    }

    private static final List<StateRecord> HISTORY = List.of(
            new StateRecord.NodeRegistered(
                    "n1",
                    new NodeEndpoint("n1", "127.0.0.1", 7001),
                    new NodeEquipment(HW, List.of(), ""),
                    new DaemonReport(5, "22.05.8", new NodeFacts("x86_64", "Linux", 9)),
                    false,
                    10),
            new StateRecord.JobSubmitted(1, Builders.aJob().build(), "p", 60, 11),
            new StateRecord.JobSubmitted(2, Builders.aJob().build(), "p", 60, 11),
            start(1, 20),
            start(2, 21),
            step(1, JobState.RUNNING, 0),
            step(1, JobState.FAILED, 5 << 8),
            step(1, JobState.CANCELLED, 9),
            StateRecord.JobEnded.unrequested(1, JobState.COMPLETED, 0, JobReason.NONE, 50),
            StateRecord.JobEnded.unrequested(2, JobState.COMPLETED, 0, JobReason.NONE, 60),
            new StateRecord.JobSubmitted(3, Builders.aJob().build(), "p", 60, 61),
            start(3, 62));

    private static ClusterState live(int records) {
        ClusterState s = fresh();
        long seq = 0;
        for (StateRecord r : HISTORY.subList(0, records)) {
            s.replay(++seq, r);
        }
        return s;
    }

    private static long lastBusy(ClusterState s) {
        return s.image().node("n1").orElseThrow().lastBusyTime();
    }

    @Test
    void aNodeIsLastBusyWhenItRegisteredThenWhenItsLastJobEnded() {
        assertThat(lastBusy(live(1))).isEqualTo(10);
        // Job 1 ended while job 2 still ran: the node was busy on.
        assertThat(lastBusy(live(9))).isEqualTo(10);
        assertThat(lastBusy(live(10))).isEqualTo(60);
        // A job starting does not make it "last busy" now.
        assertThat(lastBusy(live(12))).isEqualTo(60);
    }

    @Test
    void theDerivedExitIsTheHighestEndedStepStatus() {
        ClusterState s = live(HISTORY.size());
        assertThat(s.image().derivedExit(s.job(1))).isEqualTo(5 << 8);
        assertThat(s.image().derivedExit(s.job(2))).isZero();
    }

    @Test
    void aSnapshotKeepsBoth() {
        ClusterState live = live(HISTORY.size());
        ClusterState restored = fresh();
        for (StateRecord r : live.toRecords()) {
            restored.restore(HISTORY.size(), r);
        }
        restored.reserveJobIdsBelow(live.nextJobId());
        assertThat(restored.image()).isEqualTo(live.image());
        assertThat(lastBusy(restored)).isEqualTo(60);
        assertThat(restored.image().derivedExit(restored.job(1))).isEqualTo(5 << 8);
        assertThat(restored.node("n1").facts()).isEqualTo(new NodeFacts("x86_64", "Linux", 9));
    }
}
