package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.gres.GresRequest;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.tres.Tres;
import dev.sluice.common.units.MemorySize;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Robustness: on any input the readers either succeed or fail with a located {@link
 * ConfigException} (the value parsers with {@link IllegalArgumentException}) — never another
 * exception, never a hang.
 */
class TestParserProperties {

    @Provide
    Arbitrary<String> confText() {
        Arbitrary<String> line = Arbitraries.oneOf(
                Arbitraries.of(
                        "ClusterName=c",
                        "SlurmctldHost=h",
                        "SlurmctldHost=h(1.2.3.4)",
                        "ControlMachine=x",
                        "NodeName=n[1-3] CPUs=4",
                        "NodeName=DEFAULT RealMemory=100",
                        "NodeName=n1 NodeAddr=a[1-2]",
                        "PartitionName=p Nodes=ALL",
                        "PartitionName=q Nodes=n[1-2] MaxTime=1-0",
                        "NodeSet=s Feature=f",
                        "NodeName=m Feature=f Gres=gpu:2",
                        "KillWait=x",
                        "SlurmctldPort=1-0",
                        "Include other.conf",
                        "DownNodes=n1 State=DRAIN",
                        "PartitionName=DEFAULT State=DOWN",
                        "GresTypes=gpu",
                        "# c",
                        "\\",
                        "\"",
                        "=",
                        "NodeName=",
                        "A=\"b c\"",
                        "FastSchedule=2",
                        "CacheGroups=1",
                        "SlurmdPort=70000"),
                Arbitraries.strings()
                        .withChars("NodeamePrtiC=[]-,0123 \"#\\:()")
                        .ofMaxLength(40));
        return line.list().ofMaxSize(12).map(l -> String.join("\n", l));
    }

    @Property(tries = 3000)
    void slurmConfReaderSucceedsOrFailsWithALocation(@ForAll("confText") String text) {
        try {
            SlurmConfReader.parse(
                    text, "slurm.conf", IncludeResolver.of(java.util.Map.of("other.conf", "NodeName=o1")));
        } catch (ConfigException e) {
            assertThat(e.file()).isIn("slurm.conf", "other.conf");
            assertThat(e.line()).isBetween(0, 12);
            assertThat(e.getMessage()).startsWith(e.file() + (e.line() > 0 ? ":" + e.line() + ": " : ": "));
        }
    }

    @Property(tries = 2000)
    void gresConfReaderSucceedsOrFailsWithALocation(@ForAll("gresText") String text) {
        try {
            GresConfReader.parse(text, "gres.conf");
        } catch (ConfigException e) {
            assertThat(e.getMessage()).startsWith("gres.conf:");
        }
    }

    @Provide
    Arbitrary<String> gresText() {
        Arbitrary<String> line = Arbitraries.oneOf(
                Arbitraries.of(
                        "AutoDetect=off",
                        "Name=gpu File=/dev/g[0-3]",
                        "Name=gpu Count=3 File=/x[0-2]",
                        "NodeName=n[1-2] Name=mps Count=200",
                        "Name=gpu Cores=0-3,8",
                        "Name=gpu MultipleFiles=/a,/b",
                        "NodeName=n1 AutoDetect=nvml",
                        "Name=gpu Count=2G"),
                Arbitraries.strings().withChars("NameFilCoutr=[]-,0123 /gpu").ofMaxLength(30));
        return line.list().ofMaxSize(8).map(l -> String.join("\n", l));
    }

    @Property(tries = 2000)
    void cgroupConfReaderSucceedsOrFailsWithALocation(@ForAll("cgroupText") String text) {
        try {
            CgroupConfReader.parse(text, "cgroup.conf");
        } catch (ConfigException e) {
            assertThat(e.getMessage()).startsWith("cgroup.conf:");
        }
    }

    @Provide
    Arbitrary<String> cgroupText() {
        return Arbitraries.strings().withChars("ConstraiCesMaxRAMP=yno0129. \n").ofMaxLength(60);
    }

    @Provide
    Arbitrary<String> valueText() {
        return Arbitraries.strings()
                .withChars("0123456789-:.,=/gpuGMKTB UNLIMTEDcmemb")
                .ofMaxLength(16);
    }

    @Property(tries = 3000)
    void valueParsersOnlyThrowIllegalArgument(@ForAll("valueText") String text) {
        expectOnlyIllegalArgument(() -> TimeLimit.parseMinutes(text));
        expectOnlyIllegalArgument(() -> MemorySize.parseMegabytes(text));
        expectOnlyIllegalArgument(() -> GresRequest.parseList(text));
        expectOnlyIllegalArgument(() -> Tres.parse(text));
        expectOnlyIllegalArgument(() -> dev.sluice.common.time.BeginTime.parse(
                text, java.time.ZonedDateTime.of(2026, 11, 29, 8, 30, 0, 0, java.time.ZoneOffset.UTC)));
    }

    private static void expectOnlyIllegalArgument(Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Property
    void timeLimitsRoundTripThroughScontrolsFormat(@ForAll("minutes") long minutes) {
        assertThat(TimeLimit.parseMinutes(TimeLimit.format(minutes))).isEqualTo(minutes);
    }

    @Provide
    Arbitrary<Long> minutes() {
        return Arbitraries.longs().between(0, 525_600L * 10);
    }

    /**
     * Slurm prints memory with at most two decimals (and rounds inside its unit conversion), so a
     * round trip is exact only when the printed form has none; otherwise it is within 1%. (Slurm's own printer
     * shows 32506368 MB as {@code 31.00T}, see TestMemorySize.)
     */
    @Property
    void memoryRoundTripsThroughTres(@ForAll("megabytes") long mb) {
        String printed = Tres.empty().with("mem", mb).format();
        long back = Tres.parse(printed).get("mem");
        if (!printed.contains(".")) {
            assertThat(back).as(printed).isEqualTo(mb);
        } else {
            assertThat((double) Math.abs(back - mb)).as(printed).isLessThanOrEqualTo(mb * 0.01);
        }
    }

    @Provide
    Arbitrary<Long> megabytes() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(0, 10_000_000L),
                Arbitraries.longs().between(0, 100_000L).map(x -> x * 512));
    }
}
