package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.StateRecord;
import org.junit.jupiter.api.Test;

/**
 * What preemption journals survives a restart: a run requeued by preemption stays marked so
 * (accounting ends it PREEMPTED), a job preempted by cancel stays PREEMPTED, a GraceTime keeps
 * what happens at its end, and a job suspended by preemption stays lent to its preemptor.
 */
class TestPreemptionRecords {
    @Test
    void aRequeueByPreemptionRoundTripsAndAPlainOneStaysPlain() {
        StateRecord.JobRequeued preempted = new StateRecord.JobRequeued(7, false, 100, 221, true);
        assertThat(RecordCodec.decode(RecordCodec.encode(1, preempted))).isEqualTo(preempted);
        StateRecord.JobRequeued plain = StateRecord.JobRequeued.heldBack(7, false, 100, 221);
        assertThat(RecordCodec.encode(1, plain).getJobRequeued().getPreempted()).isFalse();
        assertThat(RecordCodec.decode(RecordCodec.encode(1, plain))).isEqualTo(plain);
    }

    @Test
    void aRequeueAfterAFailedPrologRoundTripsWithItsReason() {
        StateRecord.JobRequeued failed = StateRecord.JobRequeued.launchFailed(7, 100);
        assertThat(RecordCodec.encode(1, failed).getJobRequeued().getLaunchFailed())
                .isTrue();
        assertThat(RecordCodec.decode(RecordCodec.encode(1, failed))).isEqualTo(failed);
    }

    @Test
    void aJobEndedPreemptedRoundTrips() {
        StateRecord.JobEnded ended = StateRecord.JobEnded.unrequested(7, JobState.PREEMPTED, 15, JobReason.NONE, 100);
        assertThat(RecordCodec.decode(RecordCodec.encode(1, ended))).isEqualTo(ended);
    }

    @Test
    void aGraceThatEndsInARequeueRoundTripsAndAnOldRecordWithoutItEndsInACancel() {
        StateRecord.JobPreemptGraceStarted requeue = new StateRecord.JobPreemptGraceStarted(7, 110, true, 121, 100);
        assertThat(RecordCodec.decode(RecordCodec.encode(1, requeue))).isEqualTo(requeue);
        // Journals written before the grace kept its end: the fields absent, it is a cancel.
        var old = RecordCodec.encode(1, requeue).toBuilder();
        old.getJobPreemptGraceBuilder().clearRequeue().clearHoldBackSeconds();
        assertThat(RecordCodec.decode(old.build()))
                .isEqualTo(new StateRecord.JobPreemptGraceStarted(7, 110, false, 0, 100));
    }

    @Test
    void aSuspensionByPreemptionRoundTripsAndScontrolsStaysPlain() {
        StateRecord.JobSuspendChanged byPreemption = new StateRecord.JobSuspendChanged(7, true, 30, 100, true);
        assertThat(RecordCodec.decode(RecordCodec.encode(1, byPreemption))).isEqualTo(byPreemption);
        StateRecord.JobSuspendChanged plain = StateRecord.JobSuspendChanged.byCommand(7, true, 30, 100);
        assertThat(RecordCodec.encode(1, plain).getJobSuspend().getByPreemption())
                .isFalse();
        assertThat(RecordCodec.decode(RecordCodec.encode(1, plain))).isEqualTo(plain);
    }
}
