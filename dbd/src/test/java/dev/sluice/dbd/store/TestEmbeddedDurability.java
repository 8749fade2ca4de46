package dev.sluice.dbd.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.dbd.config.DbdConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded database keeps what sluice-dbd acknowledged when the process is killed right
 * after: H2 by default writes a commit out up to half a second later, and a sluice-dbd killed
 * in between lost records it had acknowledged (the controller, told they were safe, had
 * dropped them: jobs stayed RUNNING in sacct for good).
 */
class TestEmbeddedDurability {
    @TempDir
    Path dir;

    @Test
    void aBatchAppliedJustBeforeTheProcessIsKilledIsStillThere() throws Exception {
        String cluster = "durable";
        Path out = dir.resolve("child.out");
        Process child = new ProcessBuilder(List.of(
                        ProcessHandle.current().info().command().orElse("java"),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ApplyThenDie.class.getName(),
                        dir.resolve("db").toString(),
                        cluster))
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(Files.readString(out)).isEqualTo(9);
        assertThat(Files.readString(out)).contains("applied through 3");

        try (Database db = Database.open(DbdConfigs.embeddedUrl(dir.resolve("db")), "", "", 2)) {
            AccountingStore store = new AccountingStore(db.dataSource(), StoreFixture.CLOCK);
            assertThat(store.appliedThrough(cluster)).isEqualTo(3);
        }
    }
}
