package dev.sluice.dbd.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The hourly split: what a job used is spread over its hours without loss or double counting. */
class HourlyUsageTest {
    private static final long H = HourlyUsage.HOUR;
    private static final long T0 = 1_795_824_000L;

    @Provide
    Arbitrary<List<HourlyUsage.JobSpan>> spans() {
        return Combinators.combine(
                        Arbitraries.longs().between(0, 30 * H),
                        Arbitraries.longs().between(0, 10 * H),
                        Arbitraries.longs().between(1, 64),
                        Arbitraries.of(true, false))
                .as((start, length, cpus, running) -> new HourlyUsage.JobSpan(
                        "acct",
                        "u" + (cpus % 3),
                        T0 + start + 1,
                        running ? 0 : T0 + start + 1 + length,
                        new TresCounts(Map.of("cpu", cpus))))
                .list()
                .ofMaxSize(8);
    }

    @Property(tries = 200)
    void theHoursOfAJobAddUpToItsSpanInsideTheRange(
            @ForAll("spans") List<HourlyUsage.JobSpan> jobs,
            @ForAll("hourIndex") Integer fromHour,
            @ForAll("hourIndex") Integer hours) {
        long from = T0 + fromHour * H;
        long to = from + hours * H;
        List<HourlyUsage.Hour> out = HourlyUsage.compute(
                from, to, jobs, List.of(new HourlyUsage.TresPeriod(T0, 0, new TresCounts(Map.of("cpu", 256L)))));
        assertThat(out).hasSize(hours);
        long expected = 0;
        for (HourlyUsage.JobSpan j : jobs) {
            long end = j.end() == 0 ? to : Math.min(j.end(), to);
            expected += j.alloc().get("cpu") * Math.max(0, end - Math.max(j.start(), from));
        }
        long rolled = out.stream()
                .flatMap(h -> h.assocs().values().stream())
                .mapToLong(m -> m.getOrDefault("cpu", 0L))
                .sum();
        assertThat(rolled).isEqualTo(expected);
        for (HourlyUsage.Hour h : out) {
            HourlyUsage.ClusterHour c = h.cluster().get("cpu");
            assertThat(c.alloc() + c.idle()).isEqualTo(256 * H);
            assertThat(c.alloc() + c.over())
                    .isEqualTo(h.assocs().values().stream()
                            .mapToLong(m -> m.getOrDefault("cpu", 0L))
                            .sum());
        }
    }

    @Provide
    Arbitrary<Integer> hourIndex() {
        return Arbitraries.integers().between(0, 40);
    }

    @Test
    void overCommitBeyondTheClusterSizeIsReportedApart() {
        List<HourlyUsage.Hour> out = HourlyUsage.compute(
                T0,
                T0 + H,
                List.of(new HourlyUsage.JobSpan("a", "u", T0, 0, new TresCounts(Map.of("cpu", 6L)))),
                List.of(new HourlyUsage.TresPeriod(T0, 0, new TresCounts(Map.of("cpu", 4L)))));
        assertThat(out.get(0).cluster().get("cpu")).isEqualTo(new HourlyUsage.ClusterHour(4, 4 * H, 0, 0, 0, 0, 2 * H));
        assertThat(out.get(0).cluster().get("cpu").reported()).isEqualTo(4 * H);
    }

    @Test
    void downNodesAreDownTimeAndNotIdle() {
        List<HourlyUsage.Hour> out = HourlyUsage.compute(
                T0,
                T0 + H,
                List.of(new HourlyUsage.JobSpan("a", "u", T0, 0, new TresCounts(Map.of("cpu", 2L)))),
                List.of(
                        new HourlyUsage.TresPeriod(T0, T0 + H / 2, new TresCounts(Map.of("cpu", 8L))),
                        new HourlyUsage.TresPeriod(
                                T0 + H / 2, 0, new TresCounts(Map.of("cpu", 8L)), new TresCounts(Map.of("cpu", 4L)))));
        HourlyUsage.ClusterHour c = out.get(0).cluster().get("cpu");
        assertThat(c.down()).isEqualTo(4 * H / 2);
        assertThat(c.alloc()).isEqualTo(2 * H);
        assertThat(c.idle()).isEqualTo(8 * H - 4 * H / 2 - 2 * H);
        assertThat(c.reported()).isEqualTo(8 * H);
    }

    @Test
    void boundsMustBeWholeHours() {
        assertThatThrownBy(() -> HourlyUsage.compute(T0 + 1, T0 + H, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(HourlyUsage.floorHour(T0 + H - 1)).isEqualTo(T0);
    }
}
