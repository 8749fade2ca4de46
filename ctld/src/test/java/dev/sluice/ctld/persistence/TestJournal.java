package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ctld.Builders;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.journal.JournalEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestJournal {
    @TempDir
    Path dir;

    private static JournalEntry entry(long seq) {
        return RecordCodec.encode(
                seq, new StateRecord.JobSubmitted((int) seq, Builders.aJob().build(), "p", 60, seq));
    }

    private Path writeThree() throws IOException {
        Journal j = Journal.open(dir, false).journal();
        for (long s = 1; s <= 3; s++) {
            j.append(entry(s));
        }
        j.sync();
        j.close();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("journal-"))
                    .findFirst()
                    .orElseThrow();
        }
    }

    @Test
    void recordsSurviveReopening() throws IOException {
        writeThree();
        Journal.Recovered r = Journal.open(dir, false);
        assertThat(r.entries()).extracting(JournalEntry::getSequence).containsExactly(1L, 2L, 3L);
        assertThat(RecordCodec.decode(r.entries().get(1))).isEqualTo(RecordCodec.decode(entry(2)));
    }

    @Test
    void aTornLastRecordIsDroppedAtEveryCutPoint() throws IOException {
        Path file = writeThree();
        byte[] whole = Files.readAllBytes(file);
        int lastStart = whole.length - (entry(3).getSerializedSize() + 8);
        for (int cut = lastStart; cut < whole.length; cut++) {
            Files.write(file, java.util.Arrays.copyOf(whole, cut));
            Journal.Recovered r = Journal.open(dir, false);
            r.journal().close();
            assertThat(r.entries())
                    .as("cut at %d", cut)
                    .extracting(JournalEntry::getSequence)
                    .containsExactly(1L, 2L);
            assertThat(Files.size(file)).isEqualTo(lastStart);
        }
    }

    @Test
    void corruptionInTheMiddleStopsRecoveryNamingFileAndOffset() throws IOException {
        Path file = writeThree();
        byte[] data = Files.readAllBytes(file);
        int secondStart = entry(1).getSerializedSize() + 8;
        data[secondStart + 10] ^= 0x5a;
        Files.write(file, data);
        assertThatThrownBy(() -> Journal.open(dir, false))
                .isInstanceOf(JournalCorruptException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("byte offset " + secondStart)
                .hasMessageContaining("--truncate-corrupt-journal");
        Journal.Recovered r = Journal.open(dir, true);
        assertThat(r.entries()).extracting(JournalEntry::getSequence).containsExactly(1L);
    }

    @Test
    void aDamagedLengthInTheMiddleIsNotMistakenForATornTail() throws IOException {
        Path file = writeThree();
        byte[] data = Files.readAllBytes(file);
        int secondStart = entry(1).getSerializedSize() + 8;
        // A length running past the end looks like a torn tail; record 3 after it says otherwise.
        data[secondStart] = 0x7f;
        Files.write(file, data);
        assertThatThrownBy(() -> Journal.open(dir, false))
                .isInstanceOf(JournalCorruptException.class)
                .hasMessageContaining("byte offset " + secondStart);
        assertThat(Files.readAllBytes(file)).as("nothing truncated").isEqualTo(data);
    }

    @Test
    void aDamagedSnapshotStopsRecoveryNamingTheFile() throws IOException {
        writeThree();
        Files.write(dir.resolve("snapshot"), new byte[] {(byte) 0xff, (byte) 0xff, 0x01});
        assertThatThrownBy(() -> Journal.open(dir, false))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(dir.resolve("snapshot").toString());
    }

    @Test
    void compactionKeepsOnlyWhatFollowsTheSnapshot() throws IOException {
        Journal j = Journal.open(dir, false).journal();
        j.append(entry(1));
        j.append(entry(2));
        j.compact(dev.sluice.protocol.v1.journal.StateSnapshot.newBuilder()
                .setThroughSequence(2)
                .setNextJobId(3)
                .addAllEntries(List.of(entry(1), entry(2)))
                .build());
        j.append(entry(3));
        j.sync();
        j.close();
        Journal.Recovered r = Journal.open(dir, false);
        assertThat(r.snapshot().getEntriesCount()).isEqualTo(2);
        assertThat(r.entries()).extracting(JournalEntry::getSequence).containsExactly(3L);
    }
}
