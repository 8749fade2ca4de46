package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Commands;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.dbd.server.DbdServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sacctmgr show/clear stats against a real dbd: the requests counted since a clear, by slurmdbd
 * type and by user, in sacctmgr's order (most counted first); a plain user's refused and
 * counted; the clear itself the first request of the new count (compat 190 has the layout).
 */
class SacctmgrStatsEndToEndTest {
    private static final Caller ROOT = new Caller(0, 0, "root", "localhost");
    private static final Caller ALICE = new Caller(1000, 1000, "alice", "localhost");

    @TempDir
    Path dir;

    private DbdServer dbd;
    private Path conf;

    record Run(int rc, String out, String err) {}

    @BeforeEach
    void start() throws Exception {
        dbd = new ClusterFixture(dir, "anchor").startDbd();
        conf = dir.resolve("slurm.conf");
        Files.writeString(conf, """
                ClusterName=anchor
                SlurmctldHost=vm(127.0.0.1)
                AccountingStorageType=accounting_storage/slurmdbd
                AccountingStorageHost=127.0.0.1
                AccountingStoragePort=%d
                NodeName=n1 CPUs=4 RealMemory=8000 State=UNKNOWN
                PartitionName=gpu Nodes=n1 Default=YES MaxTime=60 State=UP
                """.formatted(dbd.commandPort()));
    }

    @AfterEach
    void stop() {
        dbd.close();
    }

    private Run sacctmgr(Caller who, String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                Map.of("SLURM_CONF", conf.toString()),
                dir,
                new ByteArrayInputStream(new byte[0]),
                who,
                Clock.systemUTC(),
                UserDirectory.fromLines(List.of(), List.of()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            rc = Commands.byName("sacctmgr").orElseThrow().run(inv, o, e);
        }
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void countsWhatWasAskedSinceTheClear() {
        assertThat(sacctmgr(ROOT, "clear", "stats")).isEqualTo(new Run(0, "", ""));
        for (int i = 0; i < 3; i++) {
            assertThat(sacctmgr(ALICE, "-n", "show", "qos").rc()).isZero();
        }
        assertThat(sacctmgr(ALICE, "-n", "show", "account").rc()).isZero();
        assertThat(sacctmgr(ALICE, "show", "stats"))
                .isEqualTo(new Run(
                        1,
                        "",
                        "sacctmgr: accounting_storage/slurmdbd: acct_storage_p_get_stats: RC:2002 Your user"
                                + " doesn't have privilege to perform this action\n"));
        assertThat(sacctmgr(ALICE, "clear", "stats")).isEqualTo(new Run(1, "", ""));

        Run shown = sacctmgr(ROOT, "show", "stats");
        assertThat(shown.rc()).isZero();
        List<String> lines = shown.out().lines().toList();
        assertThat(lines.get(1)).startsWith("sacctmgr show stats output at ");
        assertThat(lines).contains("Remote Procedure Call statistics by message type");
        List<String> counted = lines.stream()
                .filter(l -> l.startsWith("\t"))
                .map(l -> l.replaceAll(" ave_time:.*", ""))
                .toList();
        assertThat(counted)
                .containsExactly(
                        "\tDBD_GET_QOS              ( 1448) count:3     ",
                        "\tDBD_CLEAR_STATS          ( 1491) count:2     ",
                        // Ties: the longest in all first, so either order.
                        counted.get(2),
                        counted.get(3),
                        "\talice               (      1000) count:6     ",
                        "\troot                (         0) count:1     ");
        assertThat(counted.subList(2, 4))
                .containsExactlyInAnyOrder(
                        "\tDBD_GET_ACCOUNTS         ( 1409) count:1     ",
                        "\tDBD_GET_STATS            ( 1489) count:1     ");
    }
}
