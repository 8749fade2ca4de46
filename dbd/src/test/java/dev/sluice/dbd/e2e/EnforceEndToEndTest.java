package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Commands;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.ctld.server.CtldServer;
import dev.sluice.ctld.state.Job;
import dev.sluice.dbd.server.DbdServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
        Path conf = dir.resolve("client.conf");
        Files.writeString(conf, """
                ClusterName=enf
                SlurmctldHost=localhost
                AccountingStorageType=accounting_storage/slurmdbd
                AccountingStorageHost=127.0.0.1
                AccountingStoragePort=%d
                NodeName=n1 CPUs=4 RealMemory=4000 State=UNKNOWN
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                """.formatted(dbd.commandPort()));
        assertThat(sacctmgr(conf, "-i", "add", "cluster", "enf")).isZero();
        assertThat(sacctmgr(conf, "-i", "add", "account", "physics")).isZero();
        assertThat(sacctmgr(conf, "-i", "add", "user", "alice", "account=physics"))
                .isZero();
        assertThat(sacctmgr(conf, "-i", "modify", "user", "where", "name=alice", "set", "MaxJobs=1"))
                .isZero();
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

    private static int sacctmgr(Path conf, String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                Map.of("SLURM_CONF", conf.toString()),
                conf.getParent(),
                new ByteArrayInputStream(new byte[0]),
                new Caller(0, 0, "root", "localhost"),
                Clock.systemUTC(),
                UserDirectory.fromLines(List.of(), List.of()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            return Commands.byName("sacctmgr").orElseThrow().run(inv, o, o);
        }
    }
}
