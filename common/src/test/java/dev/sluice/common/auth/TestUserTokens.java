package dev.sluice.common.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code auth/jwt} as the daemons configure it: HS256 tokens from jwt_key, RS256 tokens from a
 * JWKS issued elsewhere, and the forgeries each must refuse.
 */
class TestUserTokens {
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
    private static RSAKey issuer;
    private static RSAKey stranger;

    @TempDir
    Path dir;

    @BeforeAll
    static void keys() throws Exception {
        issuer = new RSAKeyGenerator(2048).keyID("idp-1").generate();
        stranger = new RSAKeyGenerator(2048).keyID("idp-1").generate();
    }

    private Path jwks(RSAKey... keys) throws Exception {
        Path file = dir.resolve("jwks.json");
        JWKSet set = new JWKSet(List.of(keys));
        Files.writeString(file, set.toPublicJWKSet().toString());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    private Path hsKey() throws Exception {
        Path file = dir.resolve("jwt_hs256.key");
        ClusterKeys.generate(file);
        return file;
    }

    private static String rs256(RSAKey key, String kid, String claim, String user, Instant exp) throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(kid)
                        .type(JOSEObjectType.JWT)
                        .build(),
                new JWTClaimsSet.Builder()
                        .issueTime(Date.from(NOW.minusSeconds(10)))
                        .expirationTime(Date.from(exp))
                        .claim(claim, user)
                        .build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static UserTokens load(String... params) throws AuthException {
        return JwtConfig.load(List.of("auth/jwt"), List.of(params), Optional.empty())
                .orElseThrow();
    }

    @Test
    void anRs256TokenFromTheKeySetIsTakenWithItsUser() throws Exception {
        UserTokens tokens = load("jwks=" + jwks(issuer));
        String token = rs256(issuer, "idp-1", "sun", "alice", NOW.plusSeconds(300));
        assertThat(tokens.verify(token, NOW)).isEqualTo("alice");
        assertThat(tokens.canMint()).isFalse();
    }

    @Test
    void userclaimfieldNamesTheClaim() throws Exception {
        UserTokens tokens = load("jwks=" + jwks(issuer), "userclaimfield=preferred_username");
        assertThat(tokens.verify(rs256(issuer, "idp-1", "preferred_username", "bob", NOW.plusSeconds(60)), NOW))
                .isEqualTo("bob");
        assertThatThrownBy(() -> tokens.verify(rs256(issuer, "idp-1", "sun", "bob", NOW.plusSeconds(60)), NOW))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("preferred_username");
    }

    @Test
    void aKeyOutsideTheSetAnUnknownKidAndAnExpiredTokenAreRefused() throws Exception {
        UserTokens tokens = load("jwks=" + jwks(issuer));
        // Same kid, other key: the signature does not match.
        assertThatThrownBy(() -> tokens.verify(rs256(stranger, "idp-1", "sun", "root", NOW.plusSeconds(60)), NOW))
                .isInstanceOf(AuthException.class);
        assertThatThrownBy(() -> tokens.verify(rs256(issuer, "idp-2", "sun", "root", NOW.plusSeconds(60)), NOW))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("idp-2");
        assertThatThrownBy(() -> tokens.verify(rs256(issuer, null, "sun", "root", NOW.plusSeconds(60)), NOW))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("kid");
        assertThatThrownBy(() -> tokens.verify(rs256(issuer, "idp-1", "sun", "root", NOW.minusSeconds(1)), NOW))
                .isInstanceOf(AuthException.class);
    }

    /** HS/RS confusion: an HS256 token keyed with the set's public key is not an RS256 token. */
    @Test
    void anHs256TokenSignedWithThePublicKeyIsRefused() throws Exception {
        byte[] publicBytes = issuer.toRSAPublicKey().getEncoded();
        SignedJWT forged = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("idp-1").build(),
                new JWTClaimsSet.Builder()
                        .expirationTime(Date.from(NOW.plusSeconds(60)))
                        .claim("sun", "root")
                        .build());
        forged.sign(new MACSigner(publicBytes));
        UserTokens onlySet = load("jwks=" + jwks(issuer));
        assertThatThrownBy(() -> onlySet.verify(forged.serialize(), NOW))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("HS256");
        UserTokens both = load("jwt_key=" + hsKey(), "jwks=" + jwks(issuer));
        assertThatThrownBy(() -> both.verify(forged.serialize(), NOW))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("signature");
    }

    @Test
    void withBothKindsEachVerifiesItsOwnAndUnsignedIsRefused() throws Exception {
        UserTokens both = load("jwt_key=" + hsKey(), "jwks=" + jwks(issuer));
        assertThat(both.verify(both.mint("carol", NOW, Duration.ofMinutes(5)), NOW))
                .isEqualTo("carol");
        assertThat(both.verify(rs256(issuer, "idp-1", "sun", "dave", NOW.plusSeconds(60)), NOW))
                .isEqualTo("dave");
        String none = new PlainJWT(new JWTClaimsSet.Builder()
                        .expirationTime(Date.from(NOW.plusSeconds(60)))
                        .claim("sun", "root")
                        .build())
                .serialize();
        assertThatThrownBy(() -> both.verify(none, NOW)).isInstanceOf(AuthException.class);
    }

    @Test
    void aKeySetOthersCanWriteOrWithoutRsaKeysIsRefusedAtStart() throws Exception {
        Path set = jwks(issuer);
        Files.setPosixFilePermissions(set, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThatThrownBy(() -> load("jwks=" + set))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("writable");
        Path empty = dir.resolve("empty.json");
        Files.writeString(empty, "{\"keys\":[]}");
        assertThatThrownBy(() -> load("jwks=" + empty))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining("no RSA key");
        assertThatThrownBy(() -> load()).isInstanceOf(AuthException.class).hasMessageContaining("jwt_key");
        assertThat(JwtConfig.load(List.of("auth/munge"), List.of(), Optional.empty()))
                .isEmpty();
        // The controller's default: jwt_hs256.key in StateSaveLocation, which must exist.
        assertThatThrownBy(() -> JwtConfig.load(List.of("auth/jwt"), List.of(), Optional.of(dir)))
                .isInstanceOf(AuthException.class);
        hsKey();
        assertThat(JwtConfig.load(List.of("auth/jwt"), List.of(), Optional.of(dir))
                        .orElseThrow()
                        .canMint())
                .isTrue();
    }
}
