package dev.sluice.dbd.store;

import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AddClusterRequest;
import java.time.Instant;
import java.time.InstantSource;
import java.util.UUID;

/**
 * One contract test's database with a cluster and an account in it; their names, and the
 * user's and the test's own ones, carry a random suffix so runs can share a schema.
 */
final class StoreFixture implements AutoCloseable {
    static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochSecond(1_700_000_000));

    final Database db;
    final AssociationStore assocs;
    /** The suffix of this test's names. */
    final String id;

    final String cluster;
    final String acct;
    /** A user name for the test to add. */
    final String user;

    private StoreFixture(Database db, String acctPrefix) {
        this.db = db;
        this.assocs = new AssociationStore(db.dataSource(), CLOCK);
        this.id = UUID.randomUUID().toString().substring(0, 8);
        this.cluster = "c" + id;
        this.acct = acctPrefix + id;
        this.user = "u" + id;
    }

    /** Opens the database at {@code jdbcUrl} and adds the cluster and the account {@code acctPrefix}+suffix. */
    static StoreFixture open(String jdbcUrl, String acctPrefix) throws Exception {
        StoreFixture f = new StoreFixture(Database.open(jdbcUrl, "", "", 2), acctPrefix);
        f.assocs.addClusters(AddClusterRequest.newBuilder()
                .addNames(f.cluster)
                .setCommit(true)
                .build());
        f.assocs.addAccounts(AddAccountsRequest.newBuilder()
                .addNames(f.acct)
                .addClusters(f.cluster)
                .setCommit(true)
                .build());
        return f;
    }

    @Override
    public void close() {
        db.close();
    }
}
