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
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sprio, sshare and sdiag against a real controller (priority/multifactor) and dbd: alice's
 * jobs fill the node, the one left pending shows its factors, her association shows the usage
 * of the running ones, and sdiag counts what the controller did, until an operator resets it.
 */
class DiagCommandsEndToEndTest {
    @TempDir
    Path dir;

    record Result(int rc, String out, String err) {}

    @Test
    void theCommandsExplainAQueueOnARealController() throws Exception {
        ClusterFixture f = new ClusterFixture(dir, "diag");
        f.extraConf = String.join(
                "\n",
                "PriorityType=priority/multifactor",
                "PriorityWeightAge=1000",
                "PriorityWeightFairshare=10000",
                "PriorityWeightJobSize=100",
                "PriorityWeightPartition=1000");
        DbdServer dbd = f.startDbd();
        CtldServer ctld = null;
        try {
            ctld = f.startCtldHoldingJobs();
            // The commands' copy: the controller's file, with dbd's command port for sacctmgr.
            Path conf = dir.resolve("client.conf");
            java.nio.file.Files.writeString(
                    conf,
                    java.nio.file.Files.readString(dir.resolve("slurm.conf"))
                            .replaceAll("AccountingStoragePort=\\d+", "AccountingStoragePort=" + dbd.commandPort()));
            // An account is added on the clusters accounting knows: wait until the controller has
            // registered its own, or the account would have no association there (as in Slurm).
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> run(conf, ROOT, "sacctmgr", "-n", "-P", "show", "cluster", "format=cluster")
                            .out()
                            .lines()
                            .anyMatch("diag"::equals));
            Result account = run(conf, ROOT, "sacctmgr", "-i", "add", "account", "physics");
            assertThat(account.rc()).as(account.err()).isZero();
            Result user = run(conf, ROOT, "sacctmgr", "-i", "add", "user", "alice", "account=physics");
            assertThat(user.rc()).as(user.out() + user.err()).isZero();
            CtldServer c = ctld;
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ids.add(f.submit(c, "work" + i, "", "physics"));
            }
            int pending = ids.get(4);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> c.loop().image().jobs().stream()
                                    .filter(j -> j.state() == dev.sluice.common.slurm.JobState.RUNNING)
                                    .count()
                            == 4);

            Result prio = run(conf, ROOT, "sprio", "-l");
            assertThat(prio.rc()).isZero();
            assertThat(prio.out().lines().toList())
                    .hasSize(2)
                    .first()
                    .isEqualTo(
                            "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  FAIRSHARE    JOBSIZE  PARTITION        QOS        NICE                 TRES");
            assertThat(prio.out().lines().toList().get(1))
                    .matches(" +" + pending + " debug +alice +[0-9]+ +0 +[0-9]+ +0 +[0-9]+ +62 +1000 +0 +0 +");
            assertThat(run(conf, ROOT, "sprio", "-j", "999999").out())
                    .isEqualTo("Unable to find jobs matching user/id(s) specified\n");

            // Her association shows the running jobs' usage once the policy has reached the controller.
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                String shares = run(conf, ROOT, "sshare", "-a", "-n", "-P").out();
                return shares.lines().anyMatch(l -> l.matches("  physics\\|alice\\|1\\|1\\.000000\\|[1-9][0-9]*\\|.*"));
            });
            Result shares = run(conf, ALICE, "sshare", "-n", "-P", "-o", "account,user,rawshares");
            // Another user sees every account but only her own lines.
            assertThat(shares.out()).isEqualTo("root||\n physics||1\n  physics|alice|1\n");

            Result diag = run(conf, ROOT, "sdiag");
            assertThat(diag.out())
                    .contains("Jobs submitted: 5\n")
                    .contains("Jobs started:   4\n")
                    .contains("Jobs pending:   1\n")
                    .contains("Jobs running:   4\n")
                    .containsPattern("\tREQUEST_SUBMIT_BATCH_JOB {16}\\( 4003\\) count:5 ")
                    .containsPattern("\talice {11}\\(    1000\\) count:5 ");
            f.finish(c, ids.get(0));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> run(conf, ROOT, "sdiag").out().contains("Jobs completed: 1\n"));

            // (Another user's reset is refused: compat 118, where the commands run as that user;
            // here every command comes through the controller's socket as this test's root.)
            assertThat(run(conf, ROOT, "sdiag", "-r").out()).isEqualTo("Reset scheduling statistics\n");
            assertThat(run(conf, ROOT, "sdiag").out()).contains("Jobs submitted: 0\n", "Jobs completed: 0\n");

            // sstat needs node daemons that run the steps (this controller's node is a stand-in):
            // compat 120 and 121 run it against a local cluster's.
        } finally {
            if (ctld != null) {
                ctld.close();
            }
            dbd.close();
        }
    }

    private static final Caller ROOT = new Caller(0, 0, "root", "localhost");
    private static final Caller ALICE = new Caller(1000, 1000, "alice", "localhost");

    private static Result run(Path conf, Caller who, String command, String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                Map.of("SLURM_CONF", conf.toString()),
                conf.getParent(),
                new ByteArrayInputStream(new byte[0]),
                who,
                Clock.systemUTC(),
                UserDirectory.fromLines(
                        List.of("root:x:0:0::/root:/bin/sh", "alice:x:1000:1000::/tmp:/bin/sh"), List.of()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            rc = Commands.byName(command).orElseThrow().run(inv, o, e);
        }
        return new Result(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
