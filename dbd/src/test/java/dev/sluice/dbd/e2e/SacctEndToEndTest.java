package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Commands;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.ctld.server.CtldServer;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sbatch-like submits to a real controller, shipped to a real dbd, read back by the sacct command. */
class SacctEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void sacctShowsWhatTheControllerRecorded() throws Exception {
        ClusterFixture f = new ClusterFixture(dir, "e2e");
        DbdServer dbd = f.startDbd();
        CtldServer ctld = f.startCtld();
        try {
            int a = f.submit(ctld, "alpha");
            int b = f.submit(ctld, "a_rather_long_job_name");
            f.cancel(ctld, a);
            await().atMost(Duration.ofSeconds(60)).until(() -> ctld.accountingBacklog() == 0);

            // sacct finds dbd's command port through AccountingStoragePort, as Slurm's does.
            Path conf = dir.resolve("client.conf");
            Files.writeString(conf, """
                    ClusterName=e2e
                    SlurmctldHost=localhost
                    AccountingStorageType=accounting_storage/slurmdbd
                    AccountingStorageHost=127.0.0.1
                    AccountingStoragePort=%d
                    NodeName=n1 CPUs=4 RealMemory=4000 State=UNKNOWN
                    PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                    """.formatted(dbd.commandPort()));
            Caller alice = new Caller(1000, 1000, "alice", "localhost");
            String out = sacct(conf, alice, "-X");
            assertThat(out).isEqualTo("""
                            JobID           JobName  Partition    Account  AllocCPUS      State ExitCode\s
                            ------------ ---------- ---------- ---------- ---------- ---------- --------\s
                            %-12d      alpha      debug                     1 CANCELLED+      0:0\s
                            %-12d a_rather_+      debug                     1    PENDING      0:0\s
                            """.formatted(a, b));
            // Who cancelled it, and when: at once, so it started when it ended (as in Slurm).
            assertThat(sacct(conf, alice, "-X", "-P", "-n", "-j", Integer.toString(a), "-o", "state,start,end"))
                    .matches("CANCELLED by \\d+\\|(\\S+)\\|\\1\n");
            assertThat(sacct(conf, alice, "-X", "-P", "-n", "-s", "PD", "-o", "jobid,jobname,user,nodelist"))
                    .isEqualTo(b + "|a_rather_long_job_name|alice|None assigned\n");
            // A job array shows under its array id with the pending tasks' range.
            int arr = f.submit(ctld, "arr", "1-3%2");
            await().atMost(Duration.ofSeconds(60)).until(() -> ctld.accountingBacklog() == 0);
            assertThat(sacct(conf, alice, "-X", "-P", "-n", "-j", Integer.toString(arr), "-o", "jobid,jobidraw,state"))
                    .isEqualTo(arr + "_[1-3%2]|" + arr + "|PENDING\n");
            // Another user sees none of alice's jobs by default.
            assertThat(sacct(conf, new Caller(1001, 1001, "bob", "localhost"), "-X", "-n"))
                    .isEmpty();
        } finally {
            ctld.close();
            dbd.close();
        }
    }

    private static String sacct(Path conf, Caller caller, String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                Map.of("SLURM_CONF", conf.toString()),
                conf.getParent(),
                new ByteArrayInputStream(new byte[0]),
                caller,
                // A little ahead of the controller, so "now" (sacct -s) falls after the cancel
                // rather than in the same second.
                Clock.offset(Clock.systemDefaultZone(), Duration.ofSeconds(5)),
                UserDirectory.fromLines(List.of(), List.of()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            rc = Commands.byName("sacct").orElseThrow().run(inv, o, e);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(rc).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }
}
