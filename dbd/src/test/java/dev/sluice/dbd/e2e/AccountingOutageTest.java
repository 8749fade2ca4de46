package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.ctld.server.CtldServer;
import dev.sluice.dbd.server.DbdServer;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.JobState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outbox's promise: what the controller records while sluice-dbd is away, across a
 * controller restart too, reaches the database once dbd is back, each job exactly once.
 */
class AccountingOutageTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void recordsMadeWhileDbdIsDownArriveExactlyOnceAfterItReturns() throws Exception {
        ClusterFixture f = new ClusterFixture(dir, "outage");
        // First start only to learn free ports; then dbd goes away.
        f.startDbd().close();

        CtldServer ctld = f.startCtld();
        int a = f.submit(ctld, "alpha");
        int b = f.submit(ctld, "beta");
        f.cancel(ctld, b);
        // Submits and the cancel are acknowledged only after their records are in the outbox,
        // after the cluster's size the controller's start put there (as slurmctld registers its
        // TRES when it starts).
        assertThat(ctld.accountingBacklog()).isEqualTo(4);

        // The controller restarts while dbd is still down: the outbox is on disk, and the new
        // start adds its size again (dbd keeps one of equal ones).
        ctld.close();
        ctld = f.startCtld();
        assertThat(ctld.accountingBacklog()).isEqualTo(5);
        int c = f.submit(ctld, "gamma");
        assertThat(ctld.accountingBacklog()).isEqualTo(6);

        DbdServer dbd = f.startDbd();
        try {
            CtldServer running = ctld;
            await().atMost(PATIENCE).until(() -> running.accountingBacklog() == 0);
            List<AccountedJob> jobs = f.accounted();
            assertThat(jobs).extracting(AccountedJob::getJobId).containsExactly(a, b, c);
            assertThat(jobs)
                    .extracting(AccountedJob::getState)
                    .containsExactly(JobState.PENDING, JobState.CANCELLED, JobState.PENDING);
            assertThat(jobs).extracting(AccountedJob::getUserName).containsOnly("alice");

            // dbd restarts with nothing waiting: nothing is sent twice, new records still flow.
            dbd.close();
            dbd = f.startDbd();
            f.cancel(ctld, a);
            await().atMost(PATIENCE).until(() -> running.accountingBacklog() == 0);
            assertThat(f.accounted())
                    .extracting(j -> j.getJobId() + ":" + j.getState())
                    .containsExactly(a + ":CANCELLED", b + ":CANCELLED", c + ":PENDING");
        } finally {
            ctld.close();
            dbd.close();
        }
    }
}
