package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobWckey;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.journal.JobUpdatedRecord;
import dev.sluice.protocol.v1.journal.JournalEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** scontrol update's changes are typed in the record and keep the journal's map form. */
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
                        new JobChange.ReservationName("magnet"),
                        new JobChange.WckeyName(JobWckey.userDefault("wd"))),
                100);
        JournalEntry entry = RecordCodec.encode(3, updated);
        assertThat(entry.getJobUpdated().getChangesMap())
                .containsEntry("TimeLimit", "30")
                .containsEntry("Name", "train")
                .containsEntry("Nice", "-5")
                .containsEntry("Reservation", "magnet")
                .containsEntry("WCKey", "*wd");
        assertThat(RecordCodec.decode(entry)).isEqualTo(updated);
    }

    @Test
    void aChangeThisBinaryDoesNotKnowIsRefused() {
        JournalEntry entry = JournalEntry.newBuilder()
                .setSequence(1)
                .setJobUpdated(JobUpdatedRecord.newBuilder().setJobId(7).putChanges("Colour", "blue"))
                .build();
        assertThatThrownBy(() -> RecordCodec.decode(entry)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFieldChangesOnceARecord() {
        assertThatThrownBy(
                        () -> new StateRecord.JobUpdated(7, List.of(new JobChange.Nice(1), new JobChange.Nice(2)), 100))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
