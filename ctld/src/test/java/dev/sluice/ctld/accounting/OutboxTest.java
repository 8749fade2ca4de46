package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.AccountingBatch;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.JobAccountingRecord;
import dev.sluice.protocol.v1.JobInfo;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxTest {
    private static final InstantSource T0 = InstantSource.fixed(Instant.ofEpochSecond(1_700_000_000));

    @TempDir
    Path dir;

    private static AccountingRecord.Builder job(int id) {
        return AccountingRecord.newBuilder()
                .setJob(JobAccountingRecord.newBuilder()
                        .setJob(JobInfo.newBuilder().setJobId(id)));
    }

    private static List<Integer> ids(List<AccountingRecord> records) {
        return records.stream().map(r -> r.getJob().getJob().getJobId()).toList();
    }

    @Test
    void recordsShipOnlyOnceTheirJournalEntryIsDurable() throws Exception {
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            o.append(1, job(10));
            o.append(2, job(11));
            o.sync();
            assertThat(o.awaitBatch(10, 0)).isEmpty();
            o.published(1);
            assertThat(ids(o.awaitBatch(10, 0))).containsExactly(10);
            o.published(2);
            List<AccountingRecord> both = o.awaitBatch(10, 0);
            assertThat(ids(both)).containsExactly(10, 11);
            assertThat(both.get(1).getSequence()).isGreaterThan(both.get(0).getSequence());
            assertThat(o.depth()).isEqualTo(2);
            o.acknowledge(both.get(0).getSequence());
            assertThat(ids(o.awaitBatch(10, 0))).containsExactly(11);
            assertThat(o.depth()).isEqualTo(1);
        }
    }

    @Test
    void aBatchStaysWithinSluiceDbdsMessageLimit() throws Exception {
        // 24 records of 200 KB: all of them would be over gRPC's 4 MiB; a batch takes what fits 2 MiB.
        String big = "x".repeat(200_000);
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            for (int id = 1; id <= 24; id++) {
                o.append(
                        1,
                        job(id).setJob(JobAccountingRecord.newBuilder()
                                .setJob(JobInfo.newBuilder().setJobId(id).setReason(big))));
            }
            o.sync();
            o.published(1);
            List<AccountingRecord> first = o.awaitBatch(1000, 0);
            assertThat(ids(first)).hasSize(10).startsWith(1, 2);
            o.acknowledge(first.getLast().getSequence());
            assertThat(ids(o.awaitBatch(1000, 0))).hasSize(10).startsWith(11);
        }
        // One record over the cap still goes, alone.
        try (Outbox o = Outbox.open(dir.resolve("one"), 0, T0)) {
            o.append(
                    1,
                    job(1).setJob(JobAccountingRecord.newBuilder()
                            .setJob(JobInfo.newBuilder().setJobId(1).setReason("y".repeat(3_000_000)))));
            o.append(1, job(2));
            o.sync();
            o.published(1);
            assertThat(ids(o.awaitBatch(1000, 0))).containsExactly(1);
        }
    }

    @Test
    void deliveredRecordsLeaveEvenWhenTheDeliveryMarkCannotBeWritten() throws Exception {
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            o.append(1, job(10));
            o.sync();
            o.published(1);
            List<AccountingRecord> batch = o.awaitBatch(10, 0);
            // The state directory is removed under the running controller.
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
            assertThatThrownBy(() -> o.acknowledge(batch.getLast().getSequence()))
                    .isInstanceOf(java.io.IOException.class);
            // Not sent again (the shipper would loop on them at full speed).
            assertThat(o.depth()).isZero();
            assertThat(o.awaitBatch(10, 0)).isEmpty();
        }
    }

    @Test
    void sequencesStartAboveTheClockSoAWipedOutboxNeverReusesThem() throws Exception {
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            o.append(1, job(1));
            o.sync();
            o.published(1);
            assertThat(o.awaitBatch(1, 0).get(0).getSequence()).isEqualTo(1_700_000_000_000_000L);
        }
    }

    @Test
    void unacknowledgedRecordsSurviveARestartAndNewOnesFollowThem() throws Exception {
        long firstSeq;
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            o.append(1, job(1));
            o.append(2, job(2));
            o.sync();
            o.published(2);
            firstSeq = o.awaitBatch(1, 0).get(0).getSequence();
            o.acknowledge(firstSeq);
        }
        // The wall clock went back an hour: sequences must still grow.
        InstantSource earlier = InstantSource.fixed(Instant.ofEpochSecond(1_700_000_000 - 3600));
        try (Outbox o = Outbox.open(dir, 2, earlier)) {
            assertThat(o.depth()).isEqualTo(1);
            o.append(3, job(3));
            o.sync();
            o.published(3);
            List<AccountingRecord> batch = o.awaitBatch(10, 0);
            assertThat(ids(batch)).containsExactly(2, 3);
            assertThat(batch.get(0).getSequence()).isEqualTo(firstSeq + 1);
            assertThat(batch.get(1).getSequence()).isEqualTo(firstSeq + 2);
        }
    }

    @Test
    void recordsWhoseJournalEntryWasLostInACrashAreCutAtStartUp() throws Exception {
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            o.append(1, job(1));
            o.sync();
            o.published(1);
            o.append(2, job(2));
            o.append(2, job(3));
            o.sync();
            // crash here: the journal sync for entry 2 never happened
        }
        try (Outbox o = Outbox.open(dir, 1, T0)) {
            o.published(1);
            assertThat(ids(o.awaitBatch(10, 0))).containsExactly(1);
            assertThat(o.depth()).isEqualTo(1);
        }
    }

    @Test
    void aTornTailIsCut() throws Exception {
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            o.append(1, job(1));
            o.append(1, job(2));
            o.sync();
        }
        Path file = onlySegment();
        long size = Files.size(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size - 3);
        }
        try (Outbox o = Outbox.open(dir, 1, T0)) {
            assertThat(ids(o.awaitBatch(10, 0))).containsExactly(1);
        }
    }

    @Test
    void acknowledgedSegmentsAreDeleted() throws Exception {
        try (Outbox o = Outbox.open(dir, 0, T0, 64)) {
            long last = 0;
            for (int i = 1; i <= 20; i++) {
                o.append(i, job(i));
                o.sync();
                o.published(i);
            }
            assertThat(o.segmentCount()).isGreaterThan(3);
            List<AccountingRecord> all = o.awaitBatch(100, 0);
            assertThat(all).hasSize(20);
            last = all.getLast().getSequence();
            o.acknowledge(last);
            assertThat(o.depth()).isZero();
            assertThat(o.segmentCount()).isEqualTo(1);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("outbox-")))
                    .hasSize(1);
        }
    }

    @Test
    void awaitBatchWakesWhenRecordsArePublished() throws Exception {
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            Thread publisher = Thread.ofVirtual().start(() -> {
                try {
                    o.append(1, job(1));
                    o.sync();
                    o.published(1);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(ids(o.awaitBatch(10, 10_000))).containsExactly(1);
            publisher.join();
        }
    }

    @Test
    void aShipmentIsTheBatchOfTheStoredRecordsAsTheirMarshallerWouldSendIt() throws Exception {
        try (Outbox o = Outbox.open(dir, 0, T0)) {
            o.append(1, job(10));
            o.append(1, AccountingEvents.clusterSize(5, "cpu=4,mem=100M,node=1,billing=4", ""));
            o.append(2, job(300_000));
            o.sync();
            o.published(2);
            List<Outbox.Entry> stored = o.awaitEntries(10, 0);
            AccountingBatch expected = AccountingBatch.newBuilder()
                    .setClusterName("cluster-é")
                    .addAllRecords(o.awaitBatch(10, 0))
                    .build();
            byte[] shipped = OutboxShipper.batch("cluster-é", stored);
            assertThat(AccountingBatch.parseFrom(shipped)).isEqualTo(expected);
            assertThat(shipped).isEqualTo(expected.toByteArray());
            // After a restart the records come back from the segment, the same bytes.
            o.close();
            try (Outbox reopened = Outbox.open(dir, 2, T0)) {
                assertThat(OutboxShipper.batch("cluster-é", reopened.awaitEntries(10, 0)))
                        .isEqualTo(shipped);
            }
        }
    }

    private Path onlySegment() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("outbox-"))
                    .findFirst()
                    .orElseThrow();
        }
    }
}
