package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.control.BatchEnds;
import dev.sluice.ctld.control.PlanApplier;
import dev.sluice.ctld.loop.SoftState;
import dev.sluice.ctld.persistence.RecordCodec;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job preempted by cancel ends at once, and its batch host's later report says how the script
 * died: that is its ExitCode, as Slurm 22.05 shows it (compat 250): 0:9 for a script that
 * trapped the SIGTERM and was killed KillWait later, 0:15 for one the SIGTERM killed.
 */
class TestPreemptedExitCode extends PreemptionFixture {
    private static final int KILLED_BY_SIGKILL = 9;

    private static final PreemptPolicy CANCEL =
            PreemptPolicy.withoutGang(PreemptPolicy.Type.PARTITION_PRIO, PreemptMode.CANCEL, Map.of(), 0, 121);

    private int high;

    /** A job of partition mid on n1, preempted by one of partition high: ended, being killed. */
    private int preempted() {
        cluster(1);
        int low = running("mid", "n1", CPUS, NOW - 100, aJob().build());
        high = submit("high", aJob().tasks(1).build());
        var applied = PlanApplier.apply(state, schedule(CANCEL), NOW);
        applied.records().forEach(cluster::replay);
        applied.softChanges().forEach(c -> SoftState.apply(state, c));
        assertThat(state.job(low).status().state()).isEqualTo(JobState.PREEMPTED);
        return low;
    }

    @Test
    void thePreemptorWaitsUntilTheBatchHostReportsTheVictimGone() {
        int low = preempted();
        assertThat(state.completingOn(low)).containsExactly("n1");
        assertThat(schedule(CANCEL).starts()).isEmpty();

        BatchEnds.complete(state, "n1", low, 0, 15, null, ok(), "root", NOW + 1)
                .softChanges()
                .forEach(c -> SoftState.apply(state, c));

        assertThat(schedule(CANCEL).starts())
                .extracting(SchedulePlan.Start::jobId)
                .containsExactly(high);
    }

    private BatchEnds.NodeScripts ok() {
        return BatchEnds.NodeScripts.OK;
    }

    @Test
    void theBatchHostsReportOfTheKillIsThePreemptedJobsExitCode() {
        int low = preempted();
        // Until the report, Slurm shows ExitCode 0:0 (compat 250).
        assertThat(state.job(low).status().exitStatus()).isZero();

        var reported = BatchEnds.complete(state, "n1", low, 0, KILLED_BY_SIGKILL, null, ok(), "root", NOW + 2);

        assertThat(reported.records()).containsExactly(new StateRecord.JobEndReported(low, KILLED_BY_SIGKILL, NOW + 2));
        reported.records().forEach(cluster::replay);
        reported.softChanges().forEach(c -> SoftState.apply(state, c));
        assertThat(state.job(low).status().exitStatus()).isEqualTo(KILLED_BY_SIGKILL);
        // Its end is otherwise as it was, and the node is done with it.
        assertThat(state.job(low).status().state()).isEqualTo(JobState.PREEMPTED);
        assertThat(state.job(low).run().endTime()).isEqualTo(NOW);
        assertThat(state.completingOn(low)).isEmpty();
    }

    @Test
    void theReportIsJournalledEvenWhereItSaysWhatTheJobHoldsAndAResentOneChangesNothing() {
        int low = preempted();
        var first = BatchEnds.complete(state, "n1", low, 0, 0, null, ok(), "root", NOW + 2);
        // The record ends the job's COMPLETING also for a controller that restarts later.
        assertThat(first.records()).containsExactly(new StateRecord.JobEndReported(low, 0, NOW + 2));
        first.records().forEach(cluster::replay);
        assertThat(state.completingOn(low)).isEmpty();
        assertThat(BatchEnds.complete(state, "n1", low, 0, KILLED_BY_SIGKILL, null, ok(), "root", NOW + 3)
                        .records())
                .isEmpty();
    }

    @Test
    void aControllerRestartedBeforeTheReportKeepsTheVictimCompletingAndTakesTheReport() {
        cluster(1);
        int low = running("mid", "n1", CPUS, NOW - 100, aJob().build());
        high = submit("high", aJob().tasks(1).build());
        // The last snapshot before the preemption, and the journal after it.
        List<StateRecord> snapshot = state.toRecords();
        var applied = PlanApplier.apply(state, schedule(CANCEL), NOW);
        applied.records().forEach(cluster::replay);
        applied.softChanges().forEach(c -> SoftState.apply(state, c));

        for (boolean fromSnapshot : new boolean[] {false, true}) {
            ClusterState restored = cluster.emptyCopy();
            long seq = 0;
            List<StateRecord> before = fromSnapshot ? state.toRecords() : snapshot;
            for (StateRecord r : before) {
                restored.restore(++seq, RecordCodec.decode(RecordCodec.encode(seq, r)));
            }
            if (!fromSnapshot) {
                for (StateRecord r : applied.records()) {
                    restored.replay(++seq, RecordCodec.decode(RecordCodec.encode(seq, r)));
                }
            }
            // Its node answers the restarted controller.
            restored.heard("n1", NOW + 1);
            ClusterState live = state;
            state = restored;
            assertThat(restored.job(low).status().exitStatus()).isZero();
            assertThat(restored.completingOn(low)).containsExactly("n1");
            // The preemptor still waits for the victim's resources.
            assertThat(schedule(CANCEL).starts()).isEmpty();

            var reported = BatchEnds.complete(restored, "n1", low, 0, KILLED_BY_SIGKILL, null, ok(), "root", NOW + 2);
            assertThat(reported.records())
                    .containsExactly(new StateRecord.JobEndReported(low, KILLED_BY_SIGKILL, NOW + 2));
            restored.replay(++seq, reported.records().get(0));
            reported.softChanges().forEach(c -> SoftState.apply(restored, c));
            assertThat(restored.job(low).status().exitStatus()).isEqualTo(KILLED_BY_SIGKILL);
            assertThat(schedule(CANCEL).starts())
                    .extracting(SchedulePlan.Start::jobId)
                    .containsExactly(high);

            // Restarted once more after the report: done with, not COMPLETING again.
            ClusterState again = cluster.emptyCopy();
            long s2 = 0;
            for (StateRecord r : restored.toRecords()) {
                again.restore(++s2, RecordCodec.decode(RecordCodec.encode(s2, r)));
            }
            assertThat(again.completingOn(low)).isEmpty();
            assertThat(again.job(low).status().exitStatus()).isEqualTo(KILLED_BY_SIGKILL);
            state = live;
        }
    }

    @Test
    void aCancelledJobKeepsItsExitCodeWhateverTheNodeReports() {
        cluster(1);
        int job = running("mid", "n1", CPUS, NOW - 100, aJob().build());
        cluster.replay(
                new StateRecord.JobEnded(job, JobState.CANCELLED, 15, dev.sluice.common.slurm.JobReason.NONE, NOW, 0));
        state.completing(job, "n1", true);

        assertThat(BatchEnds.complete(state, "n1", job, 0, KILLED_BY_SIGKILL, null, ok(), "root", NOW + 2)
                        .records())
                .isEmpty();
    }

    @Test
    void theReportedExitCodeSurvivesARestartFromTheJournalAndFromASnapshot() {
        int low = preempted();
        StateRecord report = new StateRecord.JobEndReported(low, KILLED_BY_SIGKILL, NOW + 2);
        assertThat(RecordCodec.decode(RecordCodec.encode(1, report))).isEqualTo(report);
        cluster.replay(report);

        ClusterState restored = cluster.emptyCopy();
        long seq = 0;
        for (StateRecord r : state.toRecords()) {
            restored.restore(++seq, RecordCodec.decode(RecordCodec.encode(seq, r)));
        }
        assertThat(restored.job(low).status().state()).isEqualTo(JobState.PREEMPTED);
        assertThat(restored.job(low).status().exitStatus()).isEqualTo(KILLED_BY_SIGKILL);
    }
}
