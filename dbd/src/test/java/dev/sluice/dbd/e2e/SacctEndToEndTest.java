package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.cli.Caller;
import dev.sluice.ctld.server.CtldServer;
import dev.sluice.dbd.server.DbdServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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

            // sacct finds dbd's command port through AccountingStoragePort, as Slurm's does. Its
            // clock a little ahead of the controller's, so "now" (sacct -s) falls after the
            // cancel rather than in the same second.
            UserCommands sacct = UserCommands.reading(f.clientConf(dbd))
                    .at(Clock.offset(Clock.systemDefaultZone(), Duration.ofSeconds(5)));
            Caller alice = UserCommands.ALICE;
            String out = sacct.output(alice, "sacct", "-X");
            assertThat(out).isEqualTo("""
                            JobID           JobName  Partition    Account  AllocCPUS      State ExitCode\s
                            ------------ ---------- ---------- ---------- ---------- ---------- --------\s
                            %-12d      alpha      debug                     1 CANCELLED+      0:0\s
                            %-12d a_rather_+      debug                     1    PENDING      0:0\s
                            """.formatted(a, b));
            // Who cancelled it, and when: at once, so it started when it ended (as in Slurm).
            assertThat(sacct.output(
                            alice, "sacct", "-X", "-P", "-n", "-j", Integer.toString(a), "-o", "state,start,end"))
                    .matches("CANCELLED by \\d+\\|(\\S+)\\|\\1\n");
            assertThat(sacct.output(alice, "sacct", "-X", "-P", "-n", "-s", "PD", "-o", "jobid,jobname,user,nodelist"))
                    .isEqualTo(b + "|a_rather_long_job_name|alice|None assigned\n");
            // A job array shows under its array id with the pending tasks' range.
            int arr = f.submit(ctld, "arr", "1-3%2");
            await().atMost(Duration.ofSeconds(60)).until(() -> ctld.accountingBacklog() == 0);
            assertThat(sacct.output(
                            alice,
                            "sacct",
                            "-X",
                            "-P",
                            "-n",
                            "-j",
                            Integer.toString(arr),
                            "-o",
                            "jobid,jobidraw,state"))
                    .isEqualTo(arr + "_[1-3%2]|" + arr + "|PENDING\n");
            // Another user sees none of alice's jobs by default.
            assertThat(sacct.output(new Caller(1001, 1001, "bob", "localhost"), "sacct", "-X", "-n"))
                    .isEmpty();
        } finally {
            ctld.close();
            dbd.close();
        }
    }
}
