package dev.sluice.cli.command.sreport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.format.FieldTable;
import dev.sluice.protocol.v1.ClusterTresUsage;
import dev.sluice.protocol.v1.ClusterUsage;
import dev.sluice.protocol.v1.WckeyUsage;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The lines and text of sreport's cluster wckey reports, from a cluster's rolled-up usage. */
class TestWckeyReports {
    private static final WckeyReports.Filter ALL = new WckeyReports.Filter(Set.of(), Set.of());

    // One hour of 4 CPUs (14400 CPU-seconds reported) and 8000 MB: bob used 3600 under wb, alice 600 under
    // wb and 1200 under wa.
    private static final ClusterUsage ANCHOR = ClusterUsage.newBuilder()
            .setCluster("anchor")
            .setHasUsage(true)
            .addTres(ClusterTresUsage.newBuilder()
                    .setTres("cpu")
                    .setCount(4)
                    .setAllocSecs(5400)
                    .setIdleSecs(9000))
            .addTres(ClusterTresUsage.newBuilder()
                    .setTres("mem")
                    .setCount(8000)
                    .setAllocSecs(4000)
                    .setIdleSecs(36000))
            .addWckeys(usage("wb", "bob", "cpu", 3600))
            .addWckeys(usage("wb", "alice", "cpu", 600))
            .addWckeys(usage("wa", "alice", "cpu", 1200))
            .addWckeys(usage("wa", "alice", "mem", 4000))
            .build();

    // A cluster whose period has no rolled-up hour: in neither report.
    private static final ClusterUsage EMPTY = ClusterUsage.newBuilder()
            .setCluster("other")
            .addWckeys(usage("wa", "carol", "cpu", 60))
            .build();

    @Test
    void byWckeyPutsEachWckeyWithItsUsersSumBeforeItsUsersByName() {
        assertThat(lines(WckeyReports.byWckey(List.of(EMPTY, ANCHOR), ALL)))
                .containsExactly("wa  1200", "wa alice 1200", "wb  4200", "wb alice 600", "wb bob 3600");
    }

    @Test
    void byUserPutsTheMostCpuTimeFirst() {
        assertThat(lines(WckeyReports.byUser(List.of(ANCHOR, EMPTY), ALL, "cpu")))
                .containsExactly("wb bob 3600", "wa alice 1200", "wb alice 600");
    }

    @Test
    void wckeysAndUsersNarrowTheLinesAndTheWckeysSums() {
        assertThat(lines(WckeyReports.byWckey(List.of(ANCHOR), new WckeyReports.Filter(Set.of("wb"), Set.of()))))
                .containsExactly("wb  4200", "wb alice 600", "wb bob 3600");
        assertThat(lines(WckeyReports.byWckey(List.of(ANCHOR), new WckeyReports.Filter(Set.of(), Set.of("alice")))))
                .containsExactly("wa  1200", "wa alice 1200", "wb  600", "wb alice 600");
        assertThat(lines(WckeyReports.byUser(
                        List.of(ANCHOR), new WckeyReports.Filter(Set.of("wa"), Set.of("bob")), "cpu")))
                .isEmpty();
    }

    @Test
    void parsableByWckeyInMinutesWithEnergyBlank() {
        List<ReportField.Chosen> cols = cols("Cluster,WCKey,Login,Used,Energy");
        String text = WckeyReports.render(
                "Cluster/WCKey/User Utilization",
                context(false, List.of("cpu"), TimeFormat.MINUTES),
                WckeyReports.byWckey(List.of(ANCHOR), new WckeyReports.Filter(Set.of("wa"), Set.of())),
                cols,
                false);
        assertThat(text).isEqualTo("anchor|wa||20|\nanchor|wa|alice|20|\n");
    }

    @Test
    void percentOfTheClusterReportedTimeAndOneLinePerTres() {
        String text = WckeyReports.render(
                "Cluster/User/WCKey Utilization",
                context(false, List.of("cpu", "mem"), TimeFormat.PERCENT),
                WckeyReports.byUser(List.of(ANCHOR), new WckeyReports.Filter(Set.of("wa"), Set.of()), "cpu"),
                cols("Login,WCKey,TresName,Used"),
                true);
        // Of 14400 CPU-seconds and 40000 memory ones reported.
        assertThat(text).isEqualTo("alice|wa|cpu|8.33%\nalice|wa|mem|10.00%\n");
    }

    @Test
    void theHeaderNamesThePeriodAndTheUnits() {
        String text = WckeyReports.render(
                "Cluster/WCKey/User Utilization",
                context(true, List.of("cpu"), TimeFormat.HOURS),
                List.of(),
                cols("Cluster,WCKey"),
                false);
        assertThat(text)
                .isEqualTo(ReportContext.RULE + "\n"
                        + "Cluster/WCKey/User Utilization 1970-01-01T01:00:00 - 1970-01-01T01:59:59 (3600 secs)\n"
                        + "Usage reported in CPU Hours\n"
                        + ReportContext.RULE + "\n"
                        + "Cluster|WCKey\n");
    }

    private static List<ReportField.Chosen> cols(String format) {
        List<String> unknown = new ArrayList<>();
        List<ReportField.Chosen> cols =
                ReportField.choose(List.of(format.split(",")), false, TimeFormat.MINUTES, unknown);
        assertThat(unknown).isEmpty();
        return cols;
    }

    private static ReportContext context(boolean header, List<String> tres, TimeFormat time) {
        return new ReportContext(
                new ReportWindow(3600, 7200),
                ZoneOffset.UTC,
                time,
                new ReportPrinter(FieldTable.Mode.PARSABLE2, time),
                header,
                tres,
                false,
                user -> null);
    }

    private static List<String> lines(List<WckeyReports.Line> lines) {
        return lines.stream()
                .map(l -> l.wckey() + " " + (l.user() == null ? "" : l.user()) + " "
                        + l.used().getOrDefault("cpu", 0L))
                .toList();
    }

    private static WckeyUsage usage(String wckey, String user, String tres, long secs) {
        return WckeyUsage.newBuilder()
                .setWckey(wckey)
                .setUser(user)
                .setTres(tres)
                .setAllocSecs(secs)
                .build();
    }
}
