package dev.sluice.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Caller;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.protocol.v1.SignedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The network envelope: the user a token is to speak for rides with the token, and only with it. */
class TestClientAuth {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T12:00:00Z"), ZoneOffset.UTC);
    private static final Principal ALICE = new Principal(1001, 100, "alice", List.of(), "login1");
    private static final byte[] BODY = "ping".getBytes(StandardCharsets.UTF_8);

    private static byte[] key() {
        byte[] b = new byte[64];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 7 + 3);
        }
        return b;
    }

    @Test
    void aTokenCarriesTheUserItIsToSpeakFor() {
        ClientAuth withToken = new ClientAuth(Optional.empty(), Optional.empty(), ALICE, Optional.of("tok"), CLOCK);
        SignedRequest plain = withToken.forNetwork(BODY, "slurmctld");
        assertThat(plain.getUserToken()).isEqualTo("tok");
        assertThat(plain.getTokenUser()).isEmpty();
        SignedRequest speaking = withToken.speakingFor("alice").forNetwork(BODY, "slurmctld");
        assertThat(speaking.getUserToken()).isEqualTo("tok");
        assertThat(speaking.getTokenUser()).isEqualTo("alice");
    }

    @Test
    void withoutATokenNoUserIsNamed() {
        ClientAuth none = ClientAuth.none(new Caller(1001, 100, "alice", "login1"));
        SignedRequest bare = none.speakingFor("bob").forNetwork(BODY, "slurmctld");
        assertThat(bare.getUserToken()).isEmpty();
        assertThat(bare.getTokenUser()).isEmpty();
        ClusterCredentials signer = new ClusterCredentials(ClusterKeys.of(new ClusterKeys.Key("k1", key())));
        ClientAuth signed = new ClientAuth(Optional.empty(), Optional.of(signer), ALICE, Optional.of("tok"), CLOCK);
        SignedRequest credential = signed.speakingFor("bob").forNetwork(BODY, "slurmctld");
        assertThat(credential.getCredential()).isNotEmpty();
        assertThat(credential.getUserToken()).isEmpty();
        assertThat(credential.getTokenUser()).isEmpty();
    }
}
