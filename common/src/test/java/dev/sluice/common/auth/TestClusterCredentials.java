package dev.sluice.common.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestClusterCredentials {
    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    static final Principal ALICE = new Principal(1001, 1001, "alice", List.of(1001L, 27L), "login1");

    static ClusterKeys.Key key(String id, int fill) {
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) fill);
        return new ClusterKeys.Key(id, secret);
    }

    final ClusterCredentials old = new ClusterCredentials(ClusterKeys.of(key("old", 1)));
    final ClusterCredentials rotating = new ClusterCredentials(ClusterKeys.of(key("new", 2), key("old", 1)));
    final byte[] body = "submit job".getBytes(StandardCharsets.UTF_8);

    @Test
    void aCredentialCarriesItsPrincipal() throws Exception {
        String token = old.issue(ALICE, "slurmctld", body, NOW, Duration.ofMinutes(5));
        ClusterCredentials.Verified verified = old.verify(token, "slurmctld", body, NOW.plusSeconds(10));
        assertThat(verified.principal()).isEqualTo(ALICE);
        assertThat(verified.keyId()).isEqualTo("old");
    }

    @Test
    void duringRotationBothKeysVerifyAndTheNewOneSigns() throws Exception {
        String fromOldNode = old.issue(ALICE, "slurmctld", null, NOW, Duration.ofMinutes(5));
        assertThat(rotating.verify(fromOldNode, "slurmctld", null, NOW).keyId()).isEqualTo("old");
        String fromNewNode = rotating.issue(ALICE, "slurmctld", null, NOW, Duration.ofMinutes(5));
        assertThat(rotating.verify(fromNewNode, "slurmctld", null, NOW).keyId()).isEqualTo("new");
        assertThatThrownBy(() -> old.verify(fromNewNode, "slurmctld", null, NOW))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("unknown key 'new'");
    }

    @Test
    void aWrongKeyIsRefused() {
        ClusterCredentials forger = new ClusterCredentials(ClusterKeys.of(key("old", 9)));
        String forged = forger.issue(ALICE, "slurmctld", null, NOW, Duration.ofMinutes(5));
        assertThatThrownBy(() -> old.verify(forged, "slurmctld", null, NOW))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("signature does not match");
    }

    @Test
    void aMissingTruncatedOrBorrowedSignatureIsRefused() throws Exception {
        String token = rotating.issue(ALICE, "slurmctld", null, NOW, Duration.ofMinutes(5));
        String input = token.substring(0, token.lastIndexOf('.'));
        String signature = token.substring(token.lastIndexOf('.') + 1);
        // Checked many times with the same key, as a daemon does: each check stands alone.
        for (int i = 0; i < 3; i++) {
            assertThat(rotating.verify(token, "slurmctld", null, NOW).principal())
                    .isEqualTo(ALICE);
            assertThatThrownBy(() -> rotating.verify(input + ".", "slurmctld", null, NOW))
                    .isInstanceOf(AuthException.class);
            assertThatThrownBy(() -> rotating.verify(
                            input + "." + signature.substring(0, signature.length() - 4), "slurmctld", null, NOW))
                    .hasMessageContaining("signature does not match");
        }
        // The signature of another credential, made with the other key of the set.
        String other = old.issue(ALICE, "slurmctld", null, NOW, Duration.ofMinutes(5));
        assertThatThrownBy(
                        () -> rotating.verify(input + other.substring(other.lastIndexOf('.')), "slurmctld", null, NOW))
                .hasMessageContaining("signature does not match");
    }

    @Test
    void expiredFutureMisaddressedAndRebodiedCredentialsAreRefused() {
        String token = old.issue(ALICE, "slurmctld", body, NOW, Duration.ofMinutes(5));
        assertThatThrownBy(() -> old.verify(token, "slurmctld", body, NOW.plusSeconds(301)))
                .hasMessageContaining("expired");
        assertThatThrownBy(() -> old.verify(token, "slurmctld", body, NOW.minusSeconds(60)))
                .hasMessageContaining("future");
        assertThatThrownBy(() -> old.verify(token, "slurmd", body, NOW)).hasMessageContaining("meant for");
        assertThatThrownBy(() -> old.verify(token, "slurmctld", "cancel job".getBytes(StandardCharsets.UTF_8), NOW))
                .hasMessageContaining("different request");
        assertThatThrownBy(() -> old.verify("", "slurmctld", null, NOW)).hasMessageContaining("no credential");
        assertThatThrownBy(() -> old.verify("not.a.jwt", "slurmctld", null, NOW))
                .hasMessageContaining("malformed");
    }

    @Test
    void aTamperedPayloadIsRefused() {
        String token = old.issue(ALICE, "slurmctld", null, NOW, Duration.ofMinutes(5));
        String[] parts = token.split("\\.");
        String root = java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(new String(java.util.Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("\"uid\":1001", "\"uid\":0")
                        .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> old.verify(parts[0] + "." + root + "." + parts[2], "slurmctld", null, NOW))
                .hasMessageContaining("signature does not match");
    }

    @Test
    void keyFilesMustBePrivateAndLongEnough(@TempDir Path dir) throws Exception {
        Path key = dir.resolve(ClusterKeys.KEY_FILE);
        ClusterKeys.generate(key);
        assertThat(ClusterKeys.loadFromConfigDir(dir).keyIds()).containsExactly("slurm.key");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> ClusterKeys.load(key)).hasMessageContaining("must not be readable by other users");
        Path shortKey = dir.resolve("short.key");
        Files.write(shortKey, new byte[8]);
        Files.setPosixFilePermissions(shortKey, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> ClusterKeys.load(shortKey)).hasMessageContaining("at least 32");
        assertThatThrownBy(() -> ClusterKeys.load(dir.resolve("absent.key"))).hasMessageContaining("not found");
    }

    @Test
    void aKeySetNamesItsSigningKey(@TempDir Path dir) throws Exception {
        String a = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);
        byte[] b32 = new byte[32];
        Arrays.fill(b32, (byte) 7);
        String b = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b32);
        Path jwks = dir.resolve(ClusterKeys.KEY_SET_FILE);
        Files.writeString(
                jwks,
                "{\"keys\":[{\"kty\":\"oct\",\"kid\":\"2025\",\"alg\":\"HS256\",\"k\":\"" + a + "\"},"
                        + "{\"kty\":\"oct\",\"kid\":\"2026\",\"alg\":\"HS256\",\"use\":\"default\",\"k\":\"" + b
                        + "\"}]}");
        Files.setPosixFilePermissions(jwks, PosixFilePermissions.fromString("rw-------"));
        ClusterKeys keys = ClusterKeys.loadFromConfigDir(dir);
        assertThat(keys.signingKey().id()).isEqualTo("2026");
        assertThat(keys.keyIds()).containsExactly("2026", "2025");
    }

    @Test
    void userTokensNameTheUserAndExpire() throws Exception {
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) 5);
        UserTokens tokens = new UserTokens(secret);
        String token = tokens.mint("bob", NOW, UserTokens.DEFAULT_LIFESPAN);
        assertThat(tokens.verify(token, NOW.plusSeconds(1799))).isEqualTo("bob");
        assertThatThrownBy(() -> tokens.verify(token, NOW.plusSeconds(1800))).hasMessageContaining("expired");
        byte[] other = secret.clone();
        other[0] = 6;
        assertThatThrownBy(() -> new UserTokens(other).verify(token, NOW)).hasMessageContaining("signature");
    }
}
