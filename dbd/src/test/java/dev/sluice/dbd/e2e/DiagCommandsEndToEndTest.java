package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.cli.Caller;
import dev.sluice.ctld.server.CtldServer;
import dev.sluice.dbd.e2e.UserCommands.Run;
import dev.sluice.dbd.server.DbdServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
            Files.writeString(
                    conf,
                    Files.readString(dir.resolve("slurm.conf"))
                            .replaceAll("AccountingStoragePort=\\d+", "AccountingStoragePort=" + dbd.commandPort()));
            UserCommands commands = UserCommands.reading(conf)
                    .withPasswd("root:x:0:0::/root:/bin/sh", "alice:x:1000:1000::/tmp:/bin/sh");
            // An account is added on the clusters accounting knows: wait until the controller has
            // registered its own, or the account would have no association there (as in Slurm).
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> commands.run(ROOT, "sacctmgr", "-n", "-P", "show", "cluster", "format=cluster")
                            .out()
                            .lines()
                            .anyMatch("diag"::equals));
            Run account = commands.run(ROOT, "sacctmgr", "-i", "add", "account", "physics");
            assertThat(account.rc()).as(account.err()).isZero();
            Run user = commands.run(ROOT, "sacctmgr", "-i", "add", "user", "alice", "account=physics");
            assertThat(user.rc()).as(user.out() + user.err()).isZero();
            CtldServer c = ctld;
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ids.add(f.submit(c, "work" + i, "", "physics"));
            }
            int pending = ids.get(4);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> c.loop().image().jobs().stream()
                                    .filter(j -> j.status().state() == dev.sluice.common.slurm.JobState.RUNNING)
                                    .count()
                            == 4);

            Run prio = commands.run(ROOT, "sprio", "-l");
            assertThat(prio.rc()).isZero();
            assertThat(prio.out().lines().toList())
                    .hasSize(2)
                    .first()
                    .isEqualTo(
                            "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  FAIRSHARE    JOBSIZE  PARTITION        QOS        NICE                 TRES");
            assertThat(prio.out().lines().toList().get(1))
                    .matches(" +" + pending + " debug +alice +[0-9]+ +0 +[0-9]+ +0 +[0-9]+ +62 +1000 +0 +0 +");
            assertThat(commands.run(ROOT, "sprio", "-j", "999999").out())
                    .isEqualTo("Unable to find jobs matching user/id(s) specified\n");

            // Her association shows once the policy has reached the controller; no usage yet: as
            // in Slurm, the running jobs' usage is charged at the first priority calculation,
            // PriorityCalcPeriod (5 minutes) after the controller started.
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                String shares = commands.run(ROOT, "sshare", "-a", "-n", "-P").out();
                return shares.lines().anyMatch(l -> l.matches("  physics\\|alice\\|1\\|1\\.000000\\|0\\|.*"));
            });
            Run shares = commands.run(ALICE, "sshare", "-n", "-P", "-o", "account,user,rawshares");
            // Another user sees every account but only her own lines.
            assertThat(shares.out()).isEqualTo("root||\n physics||1\n  physics|alice|1\n");

            Run diag = commands.run(ROOT, "sdiag");
            assertThat(diag.out())
                    .contains("Jobs submitted: 5\n")
                    .contains("Jobs started:   4\n")
                    .contains("Jobs pending:   1\n")
                    .contains("Jobs running:   4\n")
                    .containsPattern("\tREQUEST_SUBMIT_BATCH_JOB {16}\\( 4003\\) count:5 ")
                    .containsPattern("\talice {11}\\(    1000\\) count:5 ");
            f.finish(c, ids.get(0));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> commands.run(ROOT, "sdiag").out().contains("Jobs completed: 1\n"));

            // (Another user's reset is refused: compat 118, where the commands run as that user;
            // here every command comes through the controller's socket as this test's root.)
            assertThat(commands.run(ROOT, "sdiag", "-r").out()).isEqualTo("Reset scheduling statistics\n");
            assertThat(commands.run(ROOT, "sdiag").out()).contains("Jobs submitted: 0\n", "Jobs completed: 0\n");

            // sstat needs node daemons that run the steps (this controller's node is a stand-in):
            // compat 120 and 121 run it against a local cluster's.
        } finally {
            if (ctld != null) {
                ctld.close();
            }
            dbd.close();
        }
    }

    private static final Caller ROOT = UserCommands.ROOT;
    private static final Caller ALICE = UserCommands.ALICE;
}
