package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.Records.batch;
import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.pending;

import dev.sluice.dbd.config.DbdConfigs;
import java.nio.file.Path;

/**
 * Run in a JVM of its own by {@link TestEmbeddedDurability}: applies one batch to the embedded
 * database in {@code args[0]} for cluster {@code args[1]}, says so, and dies at once, as a
 * sluice-dbd killed right after it acknowledged a batch.
 */
final class ApplyThenDie {
    private ApplyThenDie() {}

    public static void main(String[] args) throws Exception {
        Database db = Database.open(DbdConfigs.embeddedUrl(Path.of(args[0])), "", "", 2);
        AccountingStore store = new AccountingStore(db.dataSource(), StoreFixture.CLOCK);
        long through = store.apply(batch(args[1], job(3, pending(7, "train", "alice", 1000))));
        System.out.println("applied through " + through);
        System.out.flush();
        Runtime.getRuntime().halt(9);
    }
}
