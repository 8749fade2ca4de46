package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.ctld.server.CtldServer;
import dev.sluice.dbd.server.DbdServer;
import dev.sluice.protocol.v1.JobState;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job runs on a real controller, its records reach a real dbd, the rollup runs at a time two
 * hours on, and sreport (with its clock there) lists alice under her account, with the cluster's
 * size from the controller's node registration.
 */
class SreportEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void aRunningJobShowsInTopUsageAfterTheRollup() throws Exception {
        ClusterFixture f = new ClusterFixture(dir, "rep");
        f.enforce = "associations";
        DbdServer dbd = f.startDbd();
        UserCommands commands = UserCommands.reading(f.clientConf(dbd));
        Instant start = Instant.now();
        f.addAliceToPhysics(commands.at(Clock.fixed(start, ZoneOffset.UTC)));
        CtldServer ctld = f.startCtldHoldingJobs();
        try {
            AtomicInteger id = new AtomicInteger();
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                id.set(f.submit(ctld, "work"));
                return true;
            });
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> f.accounted().stream()
                            .anyMatch(j -> j.getJobId() == id.get() && j.getState() == JobState.RUNNING));

            Instant later = start.plus(Duration.ofHours(2));
            assertThat(dbd.rollup().rollUp("rep", later)).isGreaterThanOrEqualTo(2);

            // From the hour the job started in (sreport rounds to the nearest hour) to now.
            String from = "start="
                    + start.truncatedTo(ChronoUnit.HOURS)
                            .atOffset(ZoneOffset.UTC)
                            .toLocalDateTime();
            UserCommands asOfLater = commands.at(Clock.fixed(later, ZoneOffset.UTC));
            String top = asOfLater.output(
                    UserCommands.ROOT, "sreport", "-P", "-n", "-t", "Seconds", "user", "topusage", from, "end=now");
            assertThat(top).matches("rep\\|alice\\|\\|physics\\|[1-9][0-9]*\\|0\n");
            long used = Long.parseLong(top.split("\\|")[4]);
            // One CPU from the job's start to the end of the last rolled hour.
            assertThat(used).isBetween(3600L, 3L * 3600);

            String util = asOfLater.output(
                    UserCommands.ROOT,
                    "sreport",
                    "-P",
                    "-n",
                    "-t",
                    "Seconds",
                    "cluster",
                    "utilization",
                    from,
                    "end=now");
            String[] u = util.strip().split("\\|");
            assertThat(u[0]).isEqualTo("rep");
            long alloc = Long.parseLong(u[1]);
            long idle = Long.parseLong(u[4]);
            long reported = Long.parseLong(u[6]);
            assertThat(alloc).isEqualTo(used);
            assertThat(alloc + idle).isEqualTo(reported);
            // The node's 4 CPUs over (part of) the rolled hours.
            assertThat(reported).isGreaterThan(alloc).isLessThanOrEqualTo(4L * 3 * 3600);
        } finally {
            ctld.close();
            dbd.close();
        }
    }
}
