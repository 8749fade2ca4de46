package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.StateRecord;
import org.junit.jupiter.api.Test;

/** Who cancelled a job (sacct's "CANCELLED by 1001") survives the journal; an end nobody asked for has nobody. */
class TestJobEndedRecords {
    @Test
    void theCancellersUidRoundTrips() {
        StateRecord.JobEnded byAlice = new StateRecord.JobEnded(7, JobState.CANCELLED, 0, JobReason.NONE, 100, 1001);
        assertThat(RecordCodec.encode(1, byAlice).getJobEnded().getRequid()).isEqualTo(1001);
        assertThat(RecordCodec.decode(RecordCodec.encode(1, byAlice))).isEqualTo(byAlice);
        StateRecord.JobEnded byRoot = new StateRecord.JobEnded(7, JobState.CANCELLED, 0, JobReason.NONE, 100, 0);
        assertThat(RecordCodec.decode(RecordCodec.encode(1, byRoot))).isEqualTo(byRoot);
    }

    @Test
    void aRecordWithoutOneDecodesAsNobody() {
        StateRecord.JobEnded done = StateRecord.JobEnded.unrequested(7, JobState.COMPLETED, 0, JobReason.NONE, 100);
        assertThat(RecordCodec.encode(1, done).getJobEnded().hasRequid()).isFalse();
        assertThat(((StateRecord.JobEnded) RecordCodec.decode(RecordCodec.encode(1, done))).requid())
                .isEqualTo(StateRecord.JobEnded.NOBODY);
    }
}
