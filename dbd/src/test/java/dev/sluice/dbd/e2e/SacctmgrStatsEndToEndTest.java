package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Caller;
import dev.sluice.dbd.e2e.UserCommands.Run;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * sacctmgr show/clear stats against a real dbd: the requests counted since a clear, by slurmdbd
 * type and by user, in sacctmgr's order (most counted first); a plain user's refused and
 * counted; the clear itself the first request of the new count (compat 190 has the layout).
 */
class SacctmgrStatsEndToEndTest extends AgainstRealDbd {
    private static final Caller ROOT = UserCommands.ROOT;
    private static final Caller ALICE = UserCommands.ALICE;

    private Run sacctmgr(Caller who, String... args) {
        return commands.run(who, "sacctmgr", args);
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
