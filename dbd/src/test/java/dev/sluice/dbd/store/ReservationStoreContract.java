package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.Records.batch;
import static dev.sluice.dbd.store.Records.ended;
import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.pending;
import static dev.sluice.dbd.store.Records.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedReservation;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.ReservationAccountingRecord;
import dev.sluice.protocol.v1.ReservationQuery;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reservations' accounting history and sreport's reservation report over it, run against each
 * supported database; each test on a cluster of its own.
 */
abstract class ReservationStoreContract {
    private Database db;
    private AccountingStore store;
    private String cluster;

    protected abstract String jdbcUrl();

    @BeforeEach
    void open() {
        db = Database.open(jdbcUrl(), "", "", 2);
        store = new AccountingStore(db.dataSource(), InstantSource.fixed(Instant.ofEpochSecond(1_700_000_000)));
        cluster = "r" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void close() {
        if (db != null) {
            db.close();
        }
    }

    private static AccountingRecord resv(long seq, long time, String name, long start, long end, String nodes) {
        return AccountingRecord.newBuilder()
                .setSequence(seq)
                .setReservation(ReservationAccountingRecord.newBuilder()
                        .setId(3)
                        .setName(name)
                        .setTime(time)
                        .setStartTime(start)
                        .setEndTime(end)
                        .setNodes(nodes)
                        .setTres(nodes.equals("n1") ? "cpu=4" : "cpu=8")
                        .setFlags("SPEC_NODES")
                        .addUsers("root"))
                .build();
    }

    private static AccountingRecord deleted(long seq, long time, String name) {
        return AccountingRecord.newBuilder()
                .setSequence(seq)
                .setReservation(ReservationAccountingRecord.newBuilder()
                        .setName(name)
                        .setTime(time)
                        .setDeleted(true))
                .build();
    }

    /** A job record in reservation 3 (r1). */
    private static AccountingRecord inResv(long seq, JobInfo j) {
        AccountingRecord r = job(seq, j);
        return r.toBuilder()
                .setJob(r.getJob().toBuilder()
                        .setAccountingJob(r.getJob().getAccountingJob().toBuilder()
                                .setReservation("r1")
                                .setReservationId(3)))
                .build();
    }

    private List<AccountedReservation> report(long start, long end, long now) throws Exception {
        return ReservationQueries.find(
                        db.dataSource(),
                        ReservationQuery.newBuilder()
                                .addClusters(cluster)
                                .setStart(start)
                                .setEnd(end)
                                .build(),
                        now)
                .getReservationsList();
    }

    @Test
    void aReservationCountsWhatItsJobsWereAllocatedWithinItsWindow() throws Exception {
        JobInfo p = pending(7, "train", "alice", 900);
        JobInfo r = running(p, 1100);
        store.apply(batch(cluster, resv(1, 1000, "r1", 1000, 1300, "n1"), inResv(2, p), inResv(3, r)));
        // Running: counted up to now.
        assertThat(report(0, 3600, 1150).get(0).getAllocSecsMap())
                .containsEntry("cpu", 100L)
                .containsEntry("gres/gpu", 50L);
        // Ended after the reservation did: only its part within the window.
        store.apply(batch(cluster, inResv(4, ended(r, JobState.COMPLETED, 0, 1400))));
        AccountedReservation row = report(0, 3600, 2000).get(0);
        assertThat(row.getAllocSecsMap()).containsEntry("cpu", 400L);
        assertThat(row.getName()).isEqualTo("r1");
        assertThat(row.getTres()).isEqualTo("cpu=4");
        assertThat(row.getFlags()).isEqualTo("SPEC_NODES");
        // Users=root: the root user's association (the cluster's second, after root's own).
        assertThat(row.getAssocIdsList()).hasSize(1);
        List<AccountedJob> jobs = new JobQueries(db.dataSource())
                .find(JobQuery.newBuilder().addClusters(cluster).build());
        assertThat(jobs)
                .extracting(AccountedJob::getReservation, AccountedJob::getReservationId)
                .containsExactly(tuple("r1", 3));
    }

    @Test
    void aPendingJobNamesItsReservationOnlyThroughARowAroundOrAfterItsSubmission() throws Exception {
        // Submitted in the second the reservation began: no name, the id kept (compat 268).
        JobInfo same = pending(7, "same", "alice", 1000);
        JobInfo later = pending(8, "later", "alice", 1001);
        store.apply(batch(cluster, resv(1, 1000, "r1", 1000, 1300, "n1"), inResv(2, same), inResv(3, later)));
        List<AccountedJob> jobs = new JobQueries(db.dataSource())
                .find(JobQuery.newBuilder().addClusters(cluster).build());
        assertThat(jobs)
                .extracting(AccountedJob::getName, AccountedJob::getReservation, AccountedJob::getReservationId)
                .containsExactlyInAnyOrder(tuple("same", "", 3), tuple("later", "r1", 3));
        // Once it runs, its name is what it ran in.
        store.apply(batch(cluster, inResv(4, running(same, 1002))));
        assertThat(new JobQueries(db.dataSource())
                        .find(JobQuery.newBuilder().addClusters(cluster).build()))
                .extracting(AccountedJob::getName, AccountedJob::getReservation)
                .contains(tuple("same", "r1"));
    }

    @Test
    void aNewDurationChangesTheRowAndANewNodeSetWhileActiveStartsAnother() throws Exception {
        store.apply(batch(cluster, resv(1, 1000, "r1", 1000, 1300, "n1"), resv(2, 1010, "r1", 1000, 1600, "n1")));
        assertThat(report(0, 3600, 1020))
                .extracting(AccountedReservation::getStartTime, AccountedReservation::getEndTime)
                .containsExactly(tuple(1000L, 1600L));
        store.apply(
                batch(cluster, resv(3, 1100, "r1", 1000, 1600, "n[1-2]"), resv(4, 1200, "r1", 1000, 1900, "n[1-2]")));
        assertThat(report(0, 3600, 1300))
                .extracting(
                        AccountedReservation::getNodes,
                        AccountedReservation::getStartTime,
                        AccountedReservation::getEndTime,
                        AccountedReservation::getTres)
                .containsExactly(tuple("n1", 1000L, 1100L, "cpu=4"), tuple("n[1-2]", 1100L, 1900L, "cpu=8"));
        // Deleting it while active ends the current row then; the history stays.
        store.apply(batch(cluster, deleted(5, 1250, "r1")));
        assertThat(report(0, 3600, 1300))
                .extracting(AccountedReservation::getEndTime)
                .containsExactly(1100L, 1250L);
        // A resent record changes nothing.
        store.apply(batch(cluster, resv(4, 1200, "r1", 1000, 1900, "n[1-2]")));
        assertThat(report(0, 3600, 1300)).hasSize(2);
    }

    @Test
    void aRepeatingReservationKeepsARowPerWindow() throws Exception {
        // A DAILY one moved on by the controller once its window ended (compat 187), then
        // deleted before its next window begins: the ended window's row stays.
        store.apply(batch(cluster, resv(1, 1000, "r1", 1000, 1300, "n1")));
        store.apply(batch(cluster, resv(2, 1301, "r1", 1000 + 86_400, 1300 + 86_400, "n1")));
        assertThat(report(0, 200_000, 1400))
                .extracting(AccountedReservation::getStartTime, AccountedReservation::getEndTime)
                .containsExactly(tuple(1000L, 1300L), tuple(1000L + 86_400, 1300L + 86_400));
        store.apply(batch(cluster, deleted(3, 1500, "r1")));
        assertThat(report(0, 200_000, 1500))
                .extracting(AccountedReservation::getStartTime)
                .containsExactly(1000L);
    }

    @Test
    void aReservationDeletedBeforeItStartsLeavesNothing() throws Exception {
        store.apply(batch(cluster, resv(1, 1000, "r1", 5000, 5300, "n1")));
        assertThat(report(3600, 7200, 1000)).hasSize(1);
        store.apply(batch(cluster, deleted(2, 1100, "r1")));
        assertThat(report(3600, 7200, 1100)).isEmpty();
    }

    @Test
    void theReportListsRowsOverlappingItsWindowOnly() throws Exception {
        store.apply(batch(cluster, resv(1, 1000, "r1", 1000, 1300, "n1")));
        assertThat(report(3600, 7200, 4000)).isEmpty();
        assertThat(report(1200, 3600, 4000)).hasSize(1);
    }

    @Test
    void unusedWallCountsTheRolledUpHoursItsJobsLeftIdle() throws Exception {
        // The cluster's first hour (the store's clock) and a two-hour reservation from it.
        long h = 1_700_000_000L / 3600 * 3600;
        JobInfo r = running(pending(7, "train", "alice", h), h + 1100);
        store.apply(batch(
                cluster,
                resv(1, h, "r1", h, h + 7200, "n1"),
                inResv(2, r),
                inResv(3, ended(r, JobState.COMPLETED, 0, h + 1400))));
        // Nothing rolled up yet: nothing counted.
        assertThat(report(0, Long.MAX_VALUE, h + 4000).get(0).getUnusedWall()).isZero();
        new UsageRollup(db.dataSource(), InstantSource.fixed(Instant.ofEpochSecond(h + 4000))).rollUp(cluster);
        // The first hour: 3600 s less the job's 300 s on 2 of the reservation's 4 CPUs.
        assertThat(report(0, Long.MAX_VALUE, h + 4000).get(0).getUnusedWall()).isEqualTo(3450.0);
    }
}
