package dev.sluice.common.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who a network request is from: a bound, single-use cluster credential or a SLURM_JWT. */
class TestRequestAuthenticator {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final ClusterKeys KEYS = ClusterKeys.of(new ClusterKeys.Key("k1", bytes(64, 1)));
    private static final UserTokens TOKENS = new UserTokens(bytes(32, 7));
    private static final UserDb USERS = UserDb.of(Map.of(
            "alice", new UserDb.Account("alice", 1001, 100),
            "bob", new UserDb.Account("bob", 1002, 100),
            "root", new UserDb.Account("root", 0, 0),
            "slurm", new UserDb.Account("slurm", 64030, 64030)));
    private static final Principal ALICE = new Principal(1001, 100, "alice", List.of(), "login1");

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    private final RequestAuthenticator ctld = new RequestAuthenticator(KEYS, Optional.of(TOKENS), USERS, "slurmctld");
    private final byte[] body = "submit".getBytes(StandardCharsets.UTF_8);

    private String credential(byte[] forBody, Instant issued) {
        return new ClusterCredentials(KEYS).issue(ALICE, "slurmctld", forBody, issued, Duration.ofMinutes(5));
    }

    @Test
    void aBoundCredentialNamesItsSignerOnce() throws Exception {
        String c = credential(body, NOW);
        assertThat(ctld.authenticate(body, c, "", "10.0.0.5", NOW)).isEqualTo(ALICE);
        assertThatThrownBy(() -> ctld.authenticate(body, c, "", "10.0.0.5", NOW.plusSeconds(1)))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("replay");
    }

    @Test
    void credentialsForOtherBodiesOrTimesAreRefused() {
        assertThatThrownBy(() -> ctld.authenticate(body, credential("other".getBytes(), NOW), "", "h", NOW))
                .hasMessageContaining("different request");
        assertThatThrownBy(() -> ctld.authenticate(body, credential(body, NOW.minusSeconds(600)), "", "h", NOW))
                .hasMessageContaining("expired");
        assertThatThrownBy(() -> ctld.authenticate(body, "", "", "h", NOW)).hasMessageContaining("no credential");
    }

    @Test
    void aTokenSpeaksForAUserThisHostKnows() throws Exception {
        Principal p = ctld.authenticate(body, "", TOKENS.mint("alice", NOW, Duration.ofMinutes(30)), "10.0.0.9", NOW);
        assertThat(p.uid()).isEqualTo(1001);
        assertThat(p.gid()).isEqualTo(100);
        assertThat(p.host()).isEqualTo("10.0.0.9");
        String stranger = TOKENS.mint("mallory", NOW, Duration.ofMinutes(30));
        assertThatThrownBy(() -> ctld.authenticate(body, "", stranger, "h", NOW))
                .hasMessageContaining("unknown");
        String old = TOKENS.mint("alice", NOW.minusSeconds(3600), Duration.ofMinutes(30));
        assertThatThrownBy(() -> ctld.authenticate(body, "", old, "h", NOW)).hasMessageContaining("expired");
    }

    @Test
    void rootsAndSlurmUsersTokensSpeakForTheUserTheyName() throws Exception {
        RequestAuthenticator withSlurmUser =
                new RequestAuthenticator(KEYS, Optional.of(TOKENS), USERS, "slurmctld", "slurm");
        for (String proxy : new String[] {"root", "slurm"}) {
            String t = TOKENS.mint(proxy, NOW, Duration.ofMinutes(30));
            Principal p = withSlurmUser.authenticate(body, "", t, "alice", "10.0.0.9", NOW);
            assertThat(p.userName()).isEqualTo("alice");
            assertThat(p.uid()).isEqualTo(1001);
            assertThat(withSlurmUser.authenticate(body, "", t, "", "h", NOW).userName())
                    .isEqualTo(proxy);
            assertThatThrownBy(() -> withSlurmUser.authenticate(body, "", t, "mallory", "h", NOW))
                    .hasMessageContaining("unknown");
        }
        // Without SlurmUser named, only root's token is a proxy.
        String slurms = TOKENS.mint("slurm", NOW, Duration.ofMinutes(30));
        assertThatThrownBy(() -> ctld.authenticate(body, "", slurms, "alice", "h", NOW))
                .hasMessageContaining("may not speak for alice");
    }

    @Test
    void aPlainUsersTokenSpeaksForNobodyElse() throws Exception {
        String alices = TOKENS.mint("alice", NOW, Duration.ofMinutes(30));
        assertThat(ctld.authenticate(body, "", alices, "alice", "h", NOW).userName())
                .isEqualTo("alice");
        for (String other : new String[] {"bob", "root", "slurm"}) {
            assertThatThrownBy(() -> ctld.authenticate(body, "", alices, other, "h", NOW))
                    .isInstanceOf(AuthException.class)
                    .hasMessageContaining("may not speak for " + other);
        }
    }

    @Test
    void withoutAJwtKeyTokensAreRefused() {
        RequestAuthenticator noJwt = new RequestAuthenticator(KEYS, Optional.empty(), USERS, "slurmctld");
        String t = TOKENS.mint("alice", NOW, Duration.ofMinutes(30));
        assertThatThrownBy(() -> noJwt.authenticate(body, "", t, "h", NOW)).hasMessageContaining("not configured");
    }

    @Test
    void replayMemoryForgetsExpiredNonces() {
        ReplayGuard guard = new ReplayGuard();
        assertThat(guard.firstUse("n1", NOW.plusSeconds(5), NOW)).isTrue();
        assertThat(guard.firstUse("n1", NOW.plusSeconds(5), NOW.plusSeconds(1))).isFalse();
        assertThat(guard.firstUse("n2", NOW.plusSeconds(100), NOW.plusSeconds(60)))
                .isTrue();
        assertThat(guard.size()).isEqualTo(1);
    }

    @Test
    void theSystemUserDatabaseKnowsRoot() {
        assertThat(UserDb.system().byName("root")).contains(new UserDb.Account("root", 0, 0));
        assertThat(UserDb.system().byUid(0)).map(UserDb.Account::name).contains("root");
        assertThat(UserDb.system().byName("no-such-user-anywhere")).isEmpty();
    }
}
