package dev.sluice.dbd.store;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.JobQuery;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the job contracts ({@link AccountingStoreContract}, {@link JobQueryContract}) start from:
 * the database at {@link #jdbcUrl()}, migrated, its accounting store and sacct's queries, and a
 * cluster name of the test's own, so the suites can share one MariaDB schema with earlier runs.
 */
abstract class JobStoreContract {
    Database db;
    AccountingStore store;
    JobQueries queries;
    String cluster;

    /** JDBC URL of a database to migrate and use. */
    protected abstract String jdbcUrl();

    @BeforeEach
    void open() {
        db = Database.open(jdbcUrl(), "", "", 2);
        store = new AccountingStore(db.dataSource(), InstantSource.fixed(Instant.ofEpochSecond(1_700_000_000)));
        queries = new JobQueries(db.dataSource());
        cluster = "c" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void close() {
        // Null when the database was not there and the test was skipped before opening it.
        if (db != null) {
            db.close();
        }
    }

    /** The cluster's jobs as sacct lists them by default. */
    List<AccountedJob> all() throws Exception {
        return queries.find(JobQuery.newBuilder().addClusters(cluster).build());
    }

    /** The ids of the cluster's jobs that {@code q} finds, in sacct's order. */
    List<Integer> ids(JobQuery.Builder q) throws Exception {
        return queries.find(q.addClusters(cluster).build()).stream()
                .map(AccountedJob::getJobId)
                .toList();
    }
}
