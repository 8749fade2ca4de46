package dev.sluice.common.tres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** TRES strings as {@code scontrol show job} prints ReqTRES/AllocTRES (seed 000 shows {@code cpu=8}). */
class TestTres {

    @Test
    void formatsInSlurmsOrderWithMemoryUnits() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("gres/gpu", 4L);
        m.put("billing", 2L);
        m.put("node", 2L);
        m.put("mem", 16000L);
        m.put("cpu", 2L);
        assertThat(Tres.of(m).format()).isEqualTo("cpu=2,mem=16000M,node=2,billing=2,gres/gpu=4");
        assertThat(Tres.empty().with("mem", 4096).with("cpu", 8).format()).isEqualTo("cpu=8,mem=4G");
    }

    @Test
    void parseAndFormatRoundTrip() {
        for (String s : new String[] {
            "cpu=2,mem=16000M,node=2,billing=2,gres/gpu=4",
            "cpu=1,mem=1.50G,node=1",
            "cpu=8,mem=4G,node=1,billing=8,gres/gpu=2,gres/gpu:a100=2",
            ""
        }) {
            assertThat(Tres.parse(s).format()).isEqualTo(s);
        }
        assertThat(Tres.parse("mem=1.50G").get("mem")).isEqualTo(1536);
    }

    /** AccountingStorageTRES's {@code license/NAME} entries, the only licenses Slurm counts as TRES. */
    @Test
    void trackedLicensesAreTheLicenseEntriesOfAccountingStorageTres() {
        assertThat(Tres.trackedLicenses("gres/gpu,license/foo, License/bar,license/,cpu"))
                .containsExactlyInAnyOrder("foo", "bar");
        assertThat(Tres.trackedLicenses("gres/gpu,gres/mps")).isEmpty();
        assertThat(Tres.trackedLicenses(null)).isEmpty();
        assertThat(Tres.trackedLicenses(" ")).isEmpty();
    }

    @Test
    void rejectsBadItems() {
        for (String s : new String[] {"cpu", "cpu=", "=2", "cpu=-1", "cpu=x", "mem=4Q", "cpu=1,cpu=2"}) {
            assertThatThrownBy(() -> Tres.parse(s)).hasMessageStartingWith("Invalid TRES specification");
        }
    }

    @Test
    void sumsNameByName() {
        Tres a = Tres.parse("cpu=2,mem=1G,gres/gpu=1");
        Tres b = Tres.parse("cpu=1,node=1,gres/gpu=2");
        assertThat(a.plus(b).format()).isEqualTo("cpu=3,mem=1G,node=1,gres/gpu=3");
        assertThat(Tres.empty().plus(a)).isEqualTo(a);
    }

    @Test
    void sacctSortsByName() {
        assertThat(Tres.parse("cpu=2,mem=1G,node=1,billing=2").formatByName())
                .isEqualTo("billing=2,cpu=2,mem=1G,node=1");
    }

    @net.jqwik.api.Property
    void formatListsBuiltInsInSlurmsOrderThenTheOthersAsAdded(
            @net.jqwik.api.ForAll("names") java.util.List<String> names,
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.LongRange(min = 0, max = 1L << 40) long count) {
        Tres t = Tres.empty();
        long n = count;
        for (String name : names) {
            t = t.with(name, n++);
        }
        StringBuilder expected = new StringBuilder();
        for (String k : t.orderedNames()) {
            long v = t.get(k);
            expected.append(expected.isEmpty() ? "" : ",")
                    .append(k)
                    .append('=')
                    .append(
                            java.util.List.of("mem", "vmem", "fs/disk").contains(k)
                                    ? dev.sluice.common.units.MemorySize.format(v)
                                    : Long.toString(v));
        }
        assertThat(t.format()).isEqualTo(expected.toString());
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<java.util.List<String>> names() {
        return net.jqwik.api.Arbitraries.of(
                        "cpu",
                        "mem",
                        "energy",
                        "node",
                        "billing",
                        "fs/disk",
                        "vmem",
                        "pages",
                        "gres/gpu",
                        "gres/gpu:a100",
                        "license/matlab")
                .list()
                .ofMaxSize(12);
    }
}
