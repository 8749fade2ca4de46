package dev.sluice.cli.command.sreport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.AssocUsage;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.ClusterTresUsage;
import dev.sluice.protocol.v1.ClusterUsage;
import dev.sluice.protocol.v1.UsageQuery;
import dev.sluice.protocol.v1.UsageReport;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sreport's reports over a fixed day of usage. The expected texts follow Slurm 22.05's sreport
 * sources (src/sreport/cluster_reports.c, user_reports.c, common.c and print_fields.c: the
 * 80-dash rules, "%*.*s " columns right-justified, usage columns 8 wide below 10^8 seconds so
 * that "Allocated" prints as "Allocate", values "%.0lf" minutes); this machine has no real
 * slurmdbd to record them from.
 *
 * <p>The day: 2026-11-28 on cluster anchor with 8 CPUs; alice used 2 CPUs for 3 h (physics),
 * carol 4 CPUs for 30 min (physics), bob 1 CPU for 90 min (chem).
 */
class TestSreport {
    /** 2026-11-29T09:05:00Z: "yesterday" is 2026-11-28. */
    private static final long NOW = 1_795_943_100L;

    private static final long DAY = 1_795_824_000L;

    @TempDir
    Path dir;

    private FakeDbd dbd;
    private Map<String, String> env;

    static UsageReport day() {
        return UsageReport.newBuilder()
                .addClusters(ClusterUsage.newBuilder()
                        .setCluster("anchor")
                        .setHasUsage(true)
                        .addTres(ClusterTresUsage.newBuilder()
                                .setTres("cpu")
                                .setCount(8)
                                .setAllocSecs(34_200)
                                .setIdleSecs(8 * 86_400 - 34_200))
                        .addTres(ClusterTresUsage.newBuilder()
                                .setTres("mem")
                                .setCount(16_000)
                                .setAllocSecs(1_000 * 3_600)
                                .setIdleSecs(16_000L * 86_400 - 1_000 * 3_600))
                        .addAssocs(use("chem", "bob", "cpu", 5_400))
                        .addAssocs(use("physics", "alice", "cpu", 21_600))
                        .addAssocs(use("physics", "alice", "mem", 1_000 * 3_600))
                        .addAssocs(use("physics", "carol", "cpu", 7_200))
                        .addAccounts(assoc("root", "", ""))
                        .addAccounts(assoc("root", "root", "root"))
                        .addAccounts(assoc("physics", "", "root"))
                        .addAccounts(assoc("physics", "alice", "physics"))
                        .addAccounts(assoc("physics", "carol", "physics"))
                        .addAccounts(assoc("chem", "", "root"))
                        .addAccounts(assoc("chem", "bob", "chem")))
                .build();
    }

    private static AssocUsage use(String account, String user, String tres, long secs) {
        return AssocUsage.newBuilder()
                .setAccount(account)
                .setUser(user)
                .setTres(tres)
                .setAllocSecs(secs)
                .build();
    }

    private static AssociationEntry assoc(String account, String user, String parent) {
        return AssociationEntry.newBuilder()
                .setCluster("anchor")
                .setAccount(account)
                .setUser(user)
                .setParentAccount(parent)
                .build();
    }

    @BeforeEach
    void start() throws Exception {
        dbd = FakeDbd.usage(day());
        env = TestingInvocations.accountingConf(
                dir,
                dbd.port(),
                "NodeName=n1 CPUs=8 RealMemory=16000 State=UNKNOWN",
                "PartitionName=batch Nodes=n1 Default=YES State=UP");
    }

    @AfterEach
    void stop() throws Exception {
        dbd.close();
    }

    private Output sreport(String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                env,
                dir,
                new ByteArrayInputStream(new byte[0]),
                TestingInvocations.ROOT,
                Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC),
                UserDirectory.fromLines(
                        List.of(
                                "root:x:0:0:root:/root:/bin/bash",
                                "alice:x:1000:1000:Alice Liddell,Room 1:/home/alice:/bin/sh",
                                "bob:x:1001:1001::/home/bob:/bin/sh"),
                        List.of()));
        return TestingInvocations.run(new SreportCommand(), inv);
    }

    private static final String RULE = "-".repeat(80) + "\n";

    @Test
    void clusterUtilizationOfYesterdayInMinutes() {
        Output o = sreport("cluster", "utilization");
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        assertThat(o.out())
                .isEqualTo(RULE
                        + "Cluster Utilization 2026-11-28T00:00:00 - 2026-11-28T23:59:59\n"
                        + "Usage reported in CPU Minutes\n"
                        + RULE
                        + "  Cluster Allocate     Down PLND Dow     Idle  Planned Reported \n"
                        + "--------- -------- -------- -------- -------- -------- -------- \n"
                        + "   anchor      570        0        0    10950        0    11520 \n");
        UsageQuery q = dbd.requests().get(0).getQueryUsage();
        assertThat(q.getStart()).isEqualTo(DAY);
        assertThat(q.getEnd()).isEqualTo(DAY + 86_400);
        assertThat(q.getClustersList()).containsExactly("anchor");
    }

    @Test
    void utilizationInPercentHoursAndParsable() {
        assertThat(sreport("-t", "percent", "-n", "cluster", "Utilization").out())
                .isEqualTo("   anchor    4.95%    0.00%    0.00%   95.05%    0.00%  100.00% \n");
        assertThat(sreport("-t", "Hours", "-P", "cluster", "utilization").out())
                .endsWith("Usage reported in CPU Hours\n" + RULE
                        + "Cluster|Allocated|Down|PLND Down|Idle|Planned|Reported\n"
                        + "anchor|10|0|0|182|0|192\n");
        assertThat(sreport("-p", "-n", "-t", "s", "cluster", "utilization").out())
                .isEqualTo("anchor|34200|0|0|657000|0|691200|\n");
        assertThat(sreport("-t", "MinPer", "-n", "cluster", "utilization", "format=cl,al,rep")
                        .out())
                .isEqualTo("   anchor        570(4.95%)    11520(100.00%) \n");
    }

    @Test
    void startAndEndAreRoundedToHoursAndTheHeaderSaysSo() {
        Output o = sreport("cluster", "utilization", "start=2026-11-28T10:29:31", "end=2026-11-28T12:10");
        assertThat(o.out()).contains("Cluster Utilization 2026-11-28T11:00:00 - 2026-11-28T11:59:59\n");
        UsageQuery q = dbd.requests().get(0).getQueryUsage();
        assertThat(q.getStart()).isEqualTo(DAY + 11 * 3600);
        assertThat(q.getEnd()).isEqualTo(DAY + 12 * 3600);
    }

    @Test
    void userTopUsageListsTheHeaviestUsersFirst() {
        Output o = sreport("user", "topusage");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out())
                .isEqualTo(RULE
                        + "Top 10 Users 2026-11-28T00:00:00 - 2026-11-28T23:59:59 (86400 secs)\n"
                        + "Usage reported in CPU Minutes\n"
                        + RULE
                        + "  Cluster     Login     Proper Name         Account     Used   Energy \n"
                        + "--------- --------- --------------- --------------- -------- -------- \n"
                        + "   anchor     alice   Alice Liddell         physics      360        0 \n"
                        + "   anchor     carol                         physics      120        0 \n"
                        + "   anchor       bob                            chem       90        0 \n");
        assertThat(sreport("-P", "-n", "user", "top", "TopCount=1").out())
                .isEqualTo("anchor|alice|Alice Liddell|physics|360|0\n");
        assertThat(sreport("-P", "-n", "user", "top", "Users=bob,carol").out())
                .isEqualTo("anchor|carol||physics|120|0\nanchor|bob||chem|90|0\n");
        assertThat(sreport("-P", "-n", "user", "top", "Accounts=chem").out()).isEqualTo("anchor|bob||chem|90|0\n");
    }

    @Test
    void tresOptionReportsEachTresByName() {
        assertThat(sreport("-T", "cpu,mem", "-P", "-n", "-t", "hours", "user", "top", "TopCount=1")
                        .out())
                .isEqualTo("anchor|alice|Alice Liddell|physics|cpu|6\nanchor|alice|Alice Liddell|physics|mem|1000\n");
        // Percent of each TRES's own reported time: alice's 6 CPU-hours of 192, 1000 MB-hours of 384000.
        assertThat(sreport("-T", "cpu,mem", "-P", "-n", "-t", "percent", "user", "top", "TopCount=1")
                        .out())
                .isEqualTo(
                        "anchor|alice|Alice Liddell|physics|cpu|3.12%\nanchor|alice|Alice Liddell|physics|mem|0.26%\n");
        assertThat(sreport("-T", "mem", "cluster", "utilization").out())
                .contains("Usage reported in TRES Minutes\n")
                .contains("  Cluster      TRES Name Allocate     Down PLND Dow       Idle  Planned   Reported \n")
                .contains("   anchor            mem    60000        0        0   22980000        0   23040000 \n");
    }

    @Test
    void accountUtilizationByUserWalksTheAccountTree() {
        Output o = sreport("cluster", "AccountUtilizationByUser");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out())
                .isEqualTo(RULE
                        + "Cluster/Account/User Utilization 2026-11-28T00:00:00 - 2026-11-28T23:59:59 (86400 secs)\n"
                        + "Usage reported in CPU Minutes\n"
                        + RULE
                        + "  Cluster         Account     Login     Proper Name     Used   Energy \n"
                        + "--------- --------------- --------- --------------- -------- -------- \n"
                        + "   anchor            root                                570        0 \n"
                        + "   anchor            root      root            root        0        0 \n"
                        + "   anchor            chem                                 90        0 \n"
                        + "   anchor            chem       bob                       90        0 \n"
                        + "   anchor         physics                                480        0 \n"
                        + "   anchor         physics     alice   Alice Liddell      360        0 \n"
                        + "   anchor         physics     carol                      120        0 \n");
        assertThat(sreport("-P", "-n", "cluster", "AccountUtilizationByUser", "Accounts=chem")
                        .out())
                .isEqualTo("anchor|chem|||90|0\nanchor|chem|bob||90|0\n");
    }

    @Test
    void wckeyReportsTakeUserButNotUsersAndStillPrint() {
        Output users = sreport("-P", "-n", "cluster", "WCKeyUtilizationByUser", "users=alice");
        assertThat(users.exitCode()).isEqualTo(1);
        assertThat(users.err()).isEqualTo(" Unknown condition: users=alice\n");
        Output user = sreport("-P", "-n", "cluster", "uw", "user=alice", "start=bogus");
        assertThat(user.exitCode()).isZero();
        assertThat(user.err()).isEqualTo("Invalid time specification (pos=0): bogus\n");
    }

    @Test
    void anUnknownJobConditionStillPrintsTheReport() {
        Output bad = sreport("-P", "job", "SizesByWckey", "bogus=1");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.out()).contains("Job Sizes by Wckey ").contains("Cluster|Wckey|0-49 CPUs|");
        assertThat(bad.err()).isEqualTo(" Unknown condition: bogus=1\nUse keyword set to modify value\n");
    }

    @Test
    void errorsAsSreportPrintsThem() {
        Output bad = sreport("cluster", "nonsense");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).startsWith("Not valid report nonsense\nValid cluster reports are, ");
        Output cond = sreport("-n", "cluster", "utilization", "bogus=1");
        assertThat(cond.exitCode()).isEqualTo(1);
        assertThat(cond.err()).isEqualTo(" Unknown condition: bogus=1\nUse keyword set to modify value\n");
        Output users = sreport("-n", "cluster", "utilization", "Users=alice");
        assertThat(users.exitCode()).isEqualTo(1);
        assertThat(users.err()).startsWith(" Unknown condition: Users=alice\n");
        sreport("-n", "cluster", "utilization", "other");
        assertThat(dbd.requests().get(dbd.requests().size() - 1).getQueryUsage().getClustersList())
                .containsExactly("other");
        Output field = sreport("-n", "user", "top", "format=login,nope");
        assertThat(field.exitCode()).isEqualTo(1);
        assertThat(field.err()).isEqualTo(" Unknown field 'nope'\n");
        assertThat(field.out()).isEqualTo("    alice \n    carol \n      bob \n");
    }
}
