package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.ctld.server.CtldServer;
import dev.sluice.dbd.server.DbdServer;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.JobState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guarantee: with sluice-dbd going away and coming back again and again while 1,000 jobs are
 * submitted, run and end, every job and its batch step appear in the database exactly once, in
 * their final state. Nothing is lost while dbd is down, nothing is doubled when it returns.
 */
class AccountingStormTest {
    static final int JOBS = Integer.getInteger("sluice.acct.jobs", 1000);
    static final int OUTAGES = 4;

    @TempDir
    Path dir;

    @Test
    void everyJobAndStepArrivesExactlyOnceAcrossDbdOutages() throws Exception {
        ClusterFixture f = new ClusterFixture(dir, "storm");
        DbdServer dbd = f.startDbd();
        CtldServer ctld = f.startCtldRunningJobs();
        List<Integer> ids = new ArrayList<>();
        try {
            for (int i = 0; i < JOBS; i++) {
                ids.add(f.submit(ctld, "storm-" + i));
                // dbd goes down and comes back at even points of the storm.
                if (i % (JOBS / OUTAGES) == JOBS / OUTAGES / 2) {
                    dbd.close();
                    dbd = null;
                } else if (dbd == null && i % (JOBS / OUTAGES) == JOBS / OUTAGES - 1) {
                    dbd = f.startDbd();
                }
            }
            if (dbd == null) {
                dbd = f.startDbd();
            }
            CtldServer running = ctld;
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> running.loop().image().jobs().stream()
                                    .allMatch(j -> j.status().state().isFinished())
                            && running.accountingBacklog() == 0);

            List<AccountedJob> accounted = f.accounted();
            assertThat(accounted).hasSize(JOBS);
            Map<Integer, AccountedJob> byId =
                    accounted.stream().collect(Collectors.toMap(AccountedJob::getJobId, Function.identity()));
            assertThat(byId.keySet()).containsExactlyInAnyOrderElementsOf(ids);
            for (AccountedJob job : accounted) {
                assertThat(job.getState()).as("job %d", job.getJobId()).isEqualTo(JobState.COMPLETED);
                assertThat(job.getStepsList())
                        .as("steps of job %d", job.getJobId())
                        .extracting(AccountedStep::getName)
                        .containsExactly("batch");
            }
        } finally {
            ctld.close();
            if (dbd != null) {
                dbd.close();
            }
        }
    }
}
