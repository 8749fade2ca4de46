package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobWckey;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.journal.JobUpdatedRecord;
import dev.sluice.protocol.v1.journal.JournalEntry;
import dev.sluice.protocol.v1.journal.JournalJobChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** scontrol update's changes are typed in the record and in the journal; older journals' maps still read. */
class TestJobChangeRecords {
    @Test
    void everyKindOfChangeRoundTripsThroughTheJournal() {
        StateRecord.JobUpdated updated = new StateRecord.JobUpdated(
                7,
                List.of(
                        new JobChange.TimeLimit(30),
                        new JobChange.Name("train"),
                        new JobChange.Comment("a, b = c"),
                        new JobChange.Nice(-5),
                        new JobChange.Priority(4000),
                        new JobChange.MinNodes(2),
                        new JobChange.MaxNodes(3),
                        new JobChange.Tasks(8),
                        new JobChange.PartitionName("gpu"),
                        new JobChange.ArrayThrottle(4),
                        new JobChange.LicenseList(Licenses.parse("foo:2,bar")),
                        new JobChange.ReservationName("magnet"),
                        new JobChange.WckeyName(JobWckey.userDefault("wd"))),
                100);
        JournalEntry entry = RecordCodec.encode(3, updated);
        assertThat(entry.getJobUpdated().getChangesMap()).isEmpty();
        assertThat(entry.getJobUpdated().getTypedList()).hasSize(13);
        assertThat(RecordCodec.decode(entry)).isEqualTo(updated);
    }

    @Test
    void anUnlimitedTimeLimitKeepsSlurmsInfinite() {
        var updated = new StateRecord.JobUpdated(7, List.of(new JobChange.TimeLimit(SlurmLimits.INFINITE)), 100);
        assertThat(RecordCodec.decode(RecordCodec.encode(3, updated))).isEqualTo(updated);
    }

    /** A journal written before the typed form: scontrol's field names and the values' text. */
    @Test
    void aRecordOfTheEarlierMapFormReadsAsTheSameChanges() {
        JournalEntry entry = JournalEntry.newBuilder()
                .setSequence(1)
                .setTime(100)
                .setJobUpdated(JobUpdatedRecord.newBuilder()
                        .setJobId(7)
                        .putChanges("TimeLimit", "30")
                        .putChanges("Nice", "-5")
                        .putChanges("Licenses", "foo:2")
                        .putChanges("WCKey", "*wd"))
                .build();
        assertThat(RecordCodec.decode(entry))
                .isEqualTo(new StateRecord.JobUpdated(
                        7,
                        List.of(
                                new JobChange.TimeLimit(30),
                                new JobChange.Nice(-5),
                                new JobChange.LicenseList(Licenses.parse("foo:2")),
                                new JobChange.WckeyName(JobWckey.userDefault("wd"))),
                        100));
    }

    @Test
    void aChangeThisBinaryDoesNotKnowIsRefused() {
        JournalEntry legacy = JournalEntry.newBuilder()
                .setSequence(1)
                .setJobUpdated(JobUpdatedRecord.newBuilder().setJobId(7).putChanges("Colour", "blue"))
                .build();
        assertThatThrownBy(() -> RecordCodec.decode(legacy)).isInstanceOf(IllegalArgumentException.class);
        // A newer binary's kind of change arrives here as a typed entry with no field this one knows.
        JournalEntry newer = JournalEntry.newBuilder()
                .setSequence(1)
                .setJobUpdated(
                        JobUpdatedRecord.newBuilder().setJobId(7).addTyped(JournalJobChange.getDefaultInstance()))
                .build();
        assertThatThrownBy(() -> RecordCodec.decode(newer)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFieldChangesOnceARecord() {
        assertThatThrownBy(
                        () -> new StateRecord.JobUpdated(7, List.of(new JobChange.Nice(1), new JobChange.Nice(2)), 100))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
