package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.Records.batch;
import static dev.sluice.dbd.store.Records.ended;
import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.pending;
import static dev.sluice.dbd.store.Records.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.AddClusterRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssocUsage;
import dev.sluice.protocol.v1.ClusterTresRecord;
import dev.sluice.protocol.v1.ClusterTresUsage;
import dev.sluice.protocol.v1.ClusterUsage;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.UsageQuery;
import dev.sluice.protocol.v1.WckeyUsage;
import java.time.Instant;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hourly rollup against each supported database: jobs crossing hour boundaries, running jobs,
 * the cluster's idle time, re-rolls that replace rather than add, and late records.
 */
abstract class UsageRollupContract {
    /** 2026-11-28T00:00:00Z. */
    private static final long DAY = 1_795_824_000L;

    private static final long H = 3600;

    private Database db;
    private AccountingStore store;
    private UsageRollup rollup;
    private UsageQueries queries;
    private final AtomicLong now = new AtomicLong(DAY);
    private String cluster;
    private long seq;

    protected abstract String jdbcUrl();

    @BeforeEach
    void open() {
        db = Database.open(jdbcUrl(), "", "", 2);
        InstantSource clock = () -> Instant.ofEpochSecond(now.get());
        store = new AccountingStore(db.dataSource(), clock);
        rollup = new UsageRollup(db.dataSource(), clock);
        queries = new UsageQueries(db.dataSource());
        cluster = "u" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void close() {
        if (db != null) {
            db.close();
        }
    }

    private void send(AccountingRecord.Builder... records) throws Exception {
        AccountingRecord[] built = new AccountingRecord[records.length];
        for (int i = 0; i < records.length; i++) {
            built[i] = records[i].setSequence(++seq).build();
        }
        store.apply(batch(cluster, built));
    }

    private static AccountingRecord.Builder rec(JobInfo j) {
        return job(0, j).toBuilder();
    }

    private static AccountingRecord.Builder size(long time, String tres) {
        return size(time, tres, "");
    }

    private static AccountingRecord.Builder size(long time, String tres, String down) {
        return AccountingRecord.newBuilder()
                .setClusterTres(ClusterTresRecord.newBuilder()
                        .setTime(time)
                        .setTres(tres)
                        .setDownTres(down));
    }

    private ClusterUsage usage(long from, long to) throws Exception {
        return queries.report(UsageQuery.newBuilder()
                        .addClusters(cluster)
                        .setStart(from)
                        .setEnd(to)
                        .build())
                .getClusters(0);
    }

    private static long cpu(ClusterUsage u, String user) {
        return u.getAssocsList().stream()
                .filter(a -> a.getUser().equals(user) && a.getTres().equals("cpu"))
                .mapToLong(AssocUsage::getAllocSecs)
                .sum();
    }

    private static ClusterTresUsage clusterCpu(ClusterUsage u) {
        return u.getTresList().stream()
                .filter(t -> t.getTres().equals("cpu"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aJobCrossingHoursIsSplitAtTheBoundaries() throws Exception {
        send(size(DAY, "cpu=8,mem=16G,node=2"));
        JobInfo p = pending(1, "a", "alice", DAY + 10 * H);
        JobInfo r = running(p, DAY + 10 * H + 1800);
        send(rec(p), rec(r), rec(ended(r, JobState.COMPLETED, 0, DAY + 12 * H + 900)));
        now.set(DAY + 13 * H + 5);

        assertThat(rollup.rollUp(cluster)).isEqualTo(13);

        // running() allocates cpu=2: half of 10:00, all of 11:00, a quarter of 12:00.
        assertThat(cpu(usage(DAY + 10 * H, DAY + 11 * H), "alice")).isEqualTo(2 * 1800);
        assertThat(cpu(usage(DAY + 11 * H, DAY + 12 * H), "alice")).isEqualTo(2 * 3600);
        assertThat(cpu(usage(DAY + 12 * H, DAY + 13 * H), "alice")).isEqualTo(2 * 900);
        ClusterUsage day = usage(DAY, DAY + 13 * H);
        assertThat(cpu(day, "alice")).isEqualTo(2 * (1800 + 3600 + 900));
        ClusterTresUsage c = clusterCpu(day);
        assertThat(c.getCount()).isEqualTo(8);
        assertThat(c.getAllocSecs()).isEqualTo(2 * (1800 + 3600 + 900));
        assertThat(c.getIdleSecs()).isEqualTo(8 * 13 * H - c.getAllocSecs());
        // mem counts megabyte-seconds, gres/gpu its own TRES.
        assertThat(day.getAssocsList())
                .anySatisfy(a -> {
                    assertThat(a.getTres()).isEqualTo("mem");
                    assertThat(a.getAllocSecs()).isEqualTo(1024L * (1800 + 3600 + 900));
                })
                .anySatisfy(a -> assertThat(a.getTres()).isEqualTo("gres/gpu"));
        assertThat(day.getAssocs(0).getAccount()).isEqualTo("physics");
    }

    private static JobInfo withWckey(JobInfo j, String wckey) {
        return j.toBuilder().setSpec(j.getSpec().toBuilder().setWckey(wckey)).build();
    }

    @Test
    void wckeyUsageCountsADefaultWckeyUnderItsNameAndAJobWithoutOneNowhere() throws Exception {
        JobInfo own = running(withWckey(pending(3, "w", "carol", DAY), "wa"), DAY + 600);
        JobInfo byDefault = running(withWckey(pending(4, "w", "carol", DAY), "*wb"), DAY + 600);
        JobInfo none = running(withWckey(pending(5, "w", "dave", DAY), "*"), DAY + 600);
        JobInfo untracked = running(pending(6, "w", "erin", DAY), DAY + 600);
        send(
                rec(own),
                rec(ended(own, JobState.COMPLETED, 0, DAY + 1200)),
                rec(byDefault),
                rec(ended(byDefault, JobState.COMPLETED, 0, DAY + H + 600)),
                rec(none),
                rec(ended(none, JobState.COMPLETED, 0, DAY + 1200)),
                rec(untracked),
                rec(ended(untracked, JobState.COMPLETED, 0, DAY + 1200)));
        now.set(DAY + 2 * H);
        rollup.rollUp(cluster);

        // running() allocates cpu=2; wb's job crosses into the second hour, summed over both.
        assertThat(usage(DAY, DAY + 2 * H).getWckeysList())
                .filteredOn(w -> w.getTres().equals("cpu"))
                .extracting(WckeyUsage::getWckey, WckeyUsage::getUser, WckeyUsage::getAllocSecs)
                .containsExactly(tuple("wa", "carol", 2L * 600), tuple("wb", "carol", 2L * (3000 + 600)));
        assertThat(usage(DAY + H, DAY + 2 * H).getWckeysList())
                .filteredOn(w -> w.getTres().equals("cpu"))
                .extracting(WckeyUsage::getWckey, WckeyUsage::getAllocSecs)
                .containsExactly(tuple("wb", 2L * 600));
    }

    @Test
    void rollingAgainReplacesAndDoesNotAdd() throws Exception {
        JobInfo r = running(pending(2, "b", "bob", DAY), DAY + 600);
        send(rec(r), rec(ended(r, JobState.COMPLETED, 0, DAY + 1200)));
        now.set(DAY + 2 * H);
        rollup.rollUp(cluster);
        long first = cpu(usage(DAY, DAY + 2 * H), "bob");
        assertThat(first).isEqualTo(2 * 600);

        // Nothing new: a second run rolls nothing and changes nothing.
        assertThat(rollup.rollUp(cluster)).isZero();
        // A re-sent record with the same values changes nothing either; a changed end re-rolls.
        send(rec(ended(r, JobState.COMPLETED, 0, DAY + 1200)));
        assertThat(rollup.rollUp(cluster)).isZero();
        send(rec(ended(r, JobState.COMPLETED, 0, DAY + 1800)));
        assertThat(rollup.rollUp(cluster)).isEqualTo(2);
        assertThat(cpu(usage(DAY, DAY + 2 * H), "bob")).isEqualTo(2 * 1200);
    }

    @Test
    void aRunningJobCountsUpToTheLastCompleteHour() throws Exception {
        send(rec(running(pending(3, "c", "carol", DAY), DAY + 1800)));
        now.set(DAY + 3 * H + 1200);
        rollup.rollUp(cluster);
        assertThat(cpu(usage(DAY, DAY + 4 * H), "carol")).isEqualTo(2 * (1800 + 2 * 3600));

        now.set(DAY + 4 * H + 1);
        assertThat(rollup.rollUp(cluster)).isEqualTo(1);
        assertThat(cpu(usage(DAY, DAY + 5 * H), "carol")).isEqualTo(2 * (1800 + 3 * 3600));
    }

    @Test
    void aLateRecordReRollsTheHoursItChanges() throws Exception {
        send(size(DAY, "cpu=4"));
        now.set(DAY + 5 * H);
        rollup.rollUp(cluster);
        assertThat(clusterCpu(usage(DAY, DAY + 5 * H)).getIdleSecs()).isEqualTo(4 * 5 * H);

        // A job that ran in hour 1 reaches dbd only now (the controller was cut off).
        JobInfo r = running(pending(4, "d", "dave", DAY + H), DAY + H);
        send(rec(r), rec(ended(r, JobState.COMPLETED, 0, DAY + 2 * H)));
        assertThat(rollup.rollUp(cluster)).isEqualTo(4);
        ClusterUsage u = usage(DAY, DAY + 5 * H);
        assertThat(cpu(u, "dave")).isEqualTo(2 * 3600);
        assertThat(clusterCpu(u).getIdleSecs()).isEqualTo(4 * 5 * H - 2 * 3600);
    }

    @Test
    void theClusterSizeChangesMidHourAndAgainSameIsIgnored() throws Exception {
        send(size(DAY, "cpu=4"));
        send(size(DAY + 1800, "cpu=8"));
        send(size(DAY + 2000, "cpu=8"));
        now.set(DAY + H);
        rollup.rollUp(cluster);
        ClusterTresUsage c = clusterCpu(usage(DAY, DAY + H));
        assertThat(c.getIdleSecs()).isEqualTo(4 * 1800 + 8 * 1800);
        assertThat(c.getCount()).isEqualTo(8);
    }

    @Test
    void theClusterListingCarriesItsLatestSizeWithEveryBuiltInTres() throws Exception {
        AssociationStore assocs = new AssociationStore(db.dataSource(), () -> Instant.ofEpochSecond(now.get()));
        ListAssocRequest clusters = ListAssocRequest.newBuilder()
                .setEntity(AssocEntity.CLUSTERS)
                .addNames(cluster)
                .build();
        send(size(DAY, "cpu=4,mem=8000M,node=1,billing=4"));
        send(size(DAY + 60, "cpu=8,mem=16000M,node=2,billing=8,gres/gpu=6", "cpu=4,mem=8000M,node=1,billing=4"));
        ListAssocResult listed = assocs.list(clusters);
        assertThat(listed.getClustersList()).containsExactly(cluster);
        // As slurmctld registers them: the built-in TRES at 0 too, sorted by name; the down part
        // is not subtracted.
        assertThat(listed.getClusterTresOrThrow(cluster))
                .isEqualTo("billing=8,cpu=8,energy=0,fs/disk=0,gres/gpu=6,mem=16000M,node=2,pages=0,vmem=0");
    }

    @Test
    void aClusterWhoseControllerNeverReportedHasNoTres() throws Exception {
        AssociationStore assocs = new AssociationStore(db.dataSource(), () -> Instant.ofEpochSecond(now.get()));
        assocs.addClusters(
                AddClusterRequest.newBuilder().addNames(cluster).setCommit(true).build());
        ListAssocResult listed = assocs.list(ListAssocRequest.newBuilder()
                .setEntity(AssocEntity.CLUSTERS)
                .addNames(cluster)
                .build());
        assertThat(listed.getClustersList()).containsExactly(cluster);
        assertThat(listed.getClusterTresOrThrow(cluster)).isEmpty();
        // Its first report fills it, memory with its unit, counts not named at 0.
        send(size(DAY, "cpu=4,mem=4G"));
        assertThat(assocs.list(ListAssocRequest.newBuilder()
                                .setEntity(AssocEntity.CLUSTERS)
                                .addNames(cluster)
                                .build())
                        .getClusterTresOrThrow(cluster))
                .isEqualTo("billing=0,cpu=4,energy=0,fs/disk=0,mem=4G,node=0,pages=0,vmem=0");
    }

    @Test
    void aDrainedNodeIsDownTime() throws Exception {
        send(size(DAY, "cpu=8,node=2"));
        send(size(DAY + 1800, "cpu=8,node=2", "cpu=4,node=1"));
        // The same size and down part again (a controller restart) changes nothing.
        send(size(DAY + 2000, "cpu=8,node=2", "cpu=4,node=1"));
        now.set(DAY + 2 * H);
        rollup.rollUp(cluster);
        ClusterTresUsage c = clusterCpu(usage(DAY, DAY + 2 * H));
        assertThat(c.getDownSecs()).isEqualTo(4 * 1800 + 4 * 3600);
        assertThat(c.getIdleSecs()).isEqualTo(8 * 2 * H - c.getDownSecs());
    }

    @Test
    void pendingAndNeverStartedJobsCountNothing() throws Exception {
        JobInfo p = pending(5, "e", "erin", DAY);
        send(rec(p), rec(ended(p, JobState.CANCELLED, 0, DAY + 100)));
        now.set(DAY + 2 * H);
        rollup.rollUp(cluster);
        ClusterUsage u = usage(DAY, DAY + 2 * H);
        assertThat(u.getAssocsList()).isEmpty();
    }
}
