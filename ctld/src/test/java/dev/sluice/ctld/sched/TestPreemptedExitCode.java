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
        assertThat(state.job(low).state()).isEqualTo(JobState.PREEMPTED);
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
        assertThat(state.job(low).exitStatus()).isEqualTo(15);

        var reported = BatchEnds.complete(state, "n1", low, 0, KILLED_BY_SIGKILL, null, ok(), "root", NOW + 2);

        assertThat(reported.records()).containsExactly(new StateRecord.JobEndReported(low, KILLED_BY_SIGKILL, NOW + 2));
        reported.records().forEach(cluster::replay);
        reported.softChanges().forEach(c -> SoftState.apply(state, c));
        assertThat(state.job(low).exitStatus()).isEqualTo(KILLED_BY_SIGKILL);
        // Its end is otherwise as it was, and the node is done with it.
        assertThat(state.job(low).state()).isEqualTo(JobState.PREEMPTED);
        assertThat(state.job(low).endTime()).isEqualTo(NOW);
        assertThat(state.completingOn(low)).isEmpty();
    }

    @Test
    void aScriptTheSigtermKilledKeepsItsExitCodeAndAResentReportChangesNothing() {
        int low = preempted();
        assertThat(BatchEnds.complete(state, "n1", low, 0, 15, null, ok(), "root", NOW + 1)
                        .records())
                .isEmpty();

        var first = BatchEnds.complete(state, "n1", low, 0, KILLED_BY_SIGKILL, null, ok(), "root", NOW + 2);
        first.records().forEach(cluster::replay);
        assertThat(BatchEnds.complete(state, "n1", low, 0, KILLED_BY_SIGKILL, null, ok(), "root", NOW + 3)
                        .records())
                .isEmpty();
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
        assertThat(restored.job(low).state()).isEqualTo(JobState.PREEMPTED);
        assertThat(restored.job(low).exitStatus()).isEqualTo(KILLED_BY_SIGKILL);
    }
}
