package dev.sluice.common.gres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** GRES strings survive a round trip through their printed forms. */
class TestGresProperties {

    @Provide
    Arbitrary<GresRequest> requests() {
        Arbitrary<String> name = Arbitraries.of("gpu", "mps", "shard", "bandwidth", "nic");
        Arbitrary<java.util.Optional<String>> type =
                Arbitraries.of("a100", "tesla", "h100", "lustre").optional(0.5);
        Arbitrary<Long> count = Arbitraries.longs().between(1, 5000);
        return Combinators.combine(name, type, count).as(GresRequest::new);
    }

    @Property
    void requestListsRoundTrip(@ForAll("lists") List<GresRequest> reqs) {
        String text = String.join(",", reqs.stream().map(GresRequest::toString).toList());
        assertThat(GresRequest.parseList(text)).isEqualTo(reqs);
    }

    @Provide
    Arbitrary<List<GresRequest>> lists() {
        return requests().list().ofMinSize(1).ofMaxSize(5);
    }

    @Property
    void nodeGresRoundTrips(@ForAll("specs") List<GresSpec> specs) {
        String text = String.join(",", specs.stream().map(GresSpec::toString).toList());
        assertThat(GresSpec.parseNodeList(text)).isEqualTo(specs);
    }

    @Provide
    Arbitrary<List<GresSpec>> specs() {
        Arbitrary<String> name = Arbitraries.of("gpu", "mps", "shard", "bandwidth");
        Arbitrary<java.util.Optional<String>> type =
                Arbitraries.of("a100", "kepler", "lustre").optional(0.5);
        Arbitrary<Long> count = Arbitraries.oneOf(
                Arbitraries.longs().between(0, 5000),
                Arbitraries.longs().between(1, 64).map(x -> x << 30));
        Arbitrary<Boolean> noConsume = Arbitraries.of(true, false);
        return Combinators.combine(name, type, count, noConsume)
                .as(GresSpec::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }
}
