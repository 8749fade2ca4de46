package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.ctld.server.CtldServer;
import dev.sluice.ctld.state.Job;
import dev.sluice.dbd.server.DbdServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AccountingStorageEnforce end to end: sacctmgr sets up the association and MaxJobs=1 in a real
 * dbd, a real controller pulls them, a second job of the user waits with AssocMaxJobsLimit and
 * starts once the first ends, and an unknown account is refused with Slurm's error; with dbd
 * down, a restarted controller enforces its saved copy.
 */
class EnforceEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void maxJobsHoldsTheSecondJobAndAnUnknownAccountIsRefused() throws Exception {
        ClusterFixture f = new ClusterFixture(dir, "enf");
        f.enforce = "associations,limits,qos";
        DbdServer dbd = f.startDbd();
        UserCommands commands = UserCommands.reading(f.clientConf(dbd));
        f.addAliceToPhysics(commands);
        commands.output(
                UserCommands.ROOT, "sacctmgr", "-i", "modify", "user", "where", "name=alice", "set", "MaxJobs=1");
        CtldServer ctld = f.startCtldHoldingJobs();
        try {
            // The controller refuses every job until its first pull from dbd has arrived.
            AtomicInteger first = new AtomicInteger();
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                first.set(f.submit(ctld, "first"));
                return true;
            });
            int second = f.submit(ctld, "second");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> job(ctld, first.get()).isRunning());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> ctld.loop().image().reasonOf(job(ctld, second)).equals("AssocMaxJobsLimit"));
            assertThat(job(ctld, second).isPending()).isTrue();
            assertThat(job(ctld, second).request().account()).isEqualTo("physics");

            assertThatThrownBy(() -> f.submit(ctld, "stray", "", "nosuch"))
                    .hasMessage("Invalid account or account/partition combination specified");

            f.finish(ctld, first.get());
            await().atMost(Duration.ofSeconds(30)).until(() -> job(ctld, second).isRunning());
        } finally {
            ctld.close();
            dbd.close();
        }
        // dbd is down now: a restarted controller enforces the copy it saved in StateSaveLocation.
        assertThat(dir.resolve("state/accounting/policy.pb")).exists();
        CtldServer again = f.startCtldHoldingJobs();
        try {
            int third = f.submit(again, "third");
            assertThat(job(again, third).request().account()).isEqualTo("physics");
            assertThatThrownBy(() -> f.submit(again, "stray", "", "nosuch"))
                    .hasMessage("Invalid account or account/partition combination specified");
        } finally {
            again.close();
        }
    }

    private static Job job(CtldServer ctld, int id) {
        return ctld.loop().image().job(id).orElseThrow();
    }
}
