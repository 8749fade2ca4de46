package dev.sluice.common.hostlist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Invariants of hostlist compression, over host names shaped like real clusters' and odd ones. */
class TestHostListProperties {

    @Provide
    Arbitrary<String> hostNames() {
        Arbitrary<String> prefix = Arbitraries.of("n", "node", "gpu-", "rack1-n", "a1b", "x", "N", "c.");
        Arbitrary<Integer> number = Arbitraries.integers().between(0, 1200);
        Arbitrary<Integer> width = Arbitraries.integers().between(0, 4);
        Arbitrary<String> numbered = Combinators.combine(prefix, number, width)
                .as((p, n, w) -> p + (w == 0 ? Integer.toString(n) : String.format("%0" + w + "d", n)));
        Arbitrary<String> plain =
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(5);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, numbered),
                net.jqwik.api.Tuple.of(1, plain),
                net.jqwik.api.Tuple.of(1, prefix));
    }

    @Property
    void expandOfCompressGivesBackTheSameNamesInTheSameOrder(
            @ForAll @Size(max = 60) List<@From("hostNames") String> names) {
        assertThat(HostList.expand(HostList.compress(names))).containsExactlyElementsOf(names);
    }

    @Property
    void compressSortedIsAPermutationInSlurmOrder(@ForAll @Size(max = 60) List<@From("hostNames") String> names) {
        List<String> expanded = HostList.expand(HostList.compressSorted(names));
        assertThat(expanded).containsExactlyInAnyOrderElementsOf(names);
        assertThat(expanded.stream().map(HostName::parse).toList()).isSortedAccordingTo(HostName.SLURM_ORDER);
    }

    /** Canonical form: compressing an already compressed list's expansion is a fixed point. */
    @Property
    void compressionIsStable(@ForAll @Size(max = 60) List<@From("hostNames") String> names) {
        String once = HostList.compress(names);
        assertThat(HostList.compress(HostList.expand(once))).isEqualTo(once);
        String sorted = HostList.compressSorted(names);
        assertThat(HostList.compressSorted(HostList.expand(sorted))).isEqualTo(sorted);
    }

    /** A run of consecutive equal-width numbers always becomes one bracket range, as Slurm prints it. */
    @Property
    void consecutiveNumbersBecomeOneRange(
            @ForAll("prefixes") String prefix,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 500) int lo,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 50) int count) {
        List<String> names = new ArrayList<>();
        for (int i = lo; i < lo + count; i++) {
            names.add(prefix + String.format("%03d", i));
        }
        String expected = count == 1
                ? prefix + String.format("%03d", lo)
                : prefix + "[" + String.format("%03d", lo) + "-" + String.format("%03d", lo + count - 1) + "]";
        assertThat(HostList.compress(names)).isEqualTo(expected);
    }

    @Provide
    Arbitrary<String> prefixes() {
        return Arbitraries.of("n", "node", "gpu-", "rack1-n");
    }

    /** Arbitrary text either expands or fails with IllegalArgumentException; nothing else, no hang. */
    @Property(tries = 2000)
    void anyTextExpandsOrIsRejectedCleanly(@ForAll("hostlistishText") String text) {
        try {
            HostList.expand(text);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("Invalid hostlist: ");
        }
    }

    @Provide
    Arbitrary<String> hostlistishText() {
        return Arbitraries.strings().withChars("n0123456789[]-, x").ofMaxLength(30);
    }
}
