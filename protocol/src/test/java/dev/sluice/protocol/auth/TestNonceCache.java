package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class TestNonceCache {
    private static final Instant T0 = Instant.parse("2026-12-06T12:00:00Z");

    @Test
    void aNonceIsAcceptedOnceAndForgottenOnlyAfterItsCredentialExpires() {
        NonceCache cache = new NonceCache();
        assertThat(cache.firstUse("a", T0.plusSeconds(300), T0)).isTrue();
        assertThat(cache.firstUse("a", T0.plusSeconds(300), T0.plusSeconds(299)))
                .isFalse();
        assertThat(cache.firstUse("b", T0.plusSeconds(400), T0.plusSeconds(300)))
                .isTrue();
        // "a" expired at 300: the next check drops it, "b" stays.
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.firstUse("b", T0.plusSeconds(400), T0.plusSeconds(399)))
                .isFalse();
    }

    @Test
    void aLongLivedNonceAheadHoldsBackOnlyTheSweepNotTheRefusal() {
        NonceCache cache = new NonceCache();
        // Accepted first but from a daemon whose clock runs ahead: it expires after the next one.
        assertThat(cache.firstUse("ahead", T0.plusSeconds(330), T0)).isTrue();
        assertThat(cache.firstUse("next", T0.plusSeconds(300), T0)).isTrue();
        assertThat(cache.firstUse("later", T0.plusSeconds(700), T0.plusSeconds(310)))
                .isTrue();
        assertThat(cache.firstUse("ahead", T0.plusSeconds(330), T0.plusSeconds(320)))
                .isFalse();
        assertThat(cache.firstUse("x", T0.plusSeconds(900), T0.plusSeconds(331)))
                .isTrue();
        assertThat(cache.size()).isEqualTo(2);
    }

    /** A nonce offered again before its credential expires is refused, whatever came between. */
    @Property(tries = 300)
    void aReplayWithinItsLifetimeIsAlwaysRefused(@ForAll("offers") @Size(min = 1, max = 200) List<Offer> offers) {
        NonceCache cache = new NonceCache();
        Map<String, Instant> accepted = new HashMap<>();
        Instant now = T0;
        for (Offer o : offers) {
            now = now.plusSeconds(o.advance());
            Instant expires = now.plusSeconds(o.lifetime());
            Instant earlier = accepted.get(o.nonce());
            boolean live = earlier != null && earlier.isAfter(now);
            // A replay carries the credential it replays, and so its expiry.
            boolean first = cache.firstUse(o.nonce(), live ? earlier : expires, now);
            if (live) {
                assertThat(first)
                        .as("replay of %s before %s at %s", o.nonce(), earlier, now)
                        .isFalse();
            }
            if (first) {
                accepted.put(o.nonce(), expires);
            }
        }
        // Once every credential has expired, the next check leaves only its own nonce.
        assertThat(cache.firstUse("fresh", now.plusSeconds(700), now.plusSeconds(331)))
                .isTrue();
        assertThat(cache.size()).isEqualTo(1);
    }

    record Offer(String nonce, int advance, int lifetime) {}

    @Provide
    Arbitrary<List<Offer>> offers() {
        Arbitrary<Offer> offer = Combinators.combine(
                        Arbitraries.strings().withChars("abcdefgh").ofLength(1),
                        Arbitraries.integers().between(0, 60),
                        Arbitraries.integers().between(1, 330))
                .as(Offer::new);
        return offer.list();
    }
}
