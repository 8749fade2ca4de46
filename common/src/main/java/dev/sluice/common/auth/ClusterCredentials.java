package dev.sluice.common.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Short-lived credentials signed with the cluster key: an HS256 JWT naming the principal, the
 * daemon it is meant for (audience), a nonce, and optionally the SHA-256 of the request body
 * it rides with, so a credential lifted off one request cannot authorise another. Only holders
 * of the cluster key (the daemons, root, a login-node agent) can make one; that is what makes
 * the uid inside trustworthy.
 */
public final class ClusterCredentials {
    /** How far a peer's clock may run ahead before its credentials look issued in the future. */
    public static final Duration CLOCK_SKEW = Duration.ofSeconds(30);

    /** Munge's default credential lifetime; long enough for a slow RPC, short for a thief. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(300);

    private static final String CLAIM_UID = "uid";
    private static final String CLAIM_GID = "gid";
    private static final String CLAIM_USER = "user";
    private static final String CLAIM_GROUPS = "groups";
    private static final String CLAIM_HOST = "host";
    private static final String CLAIM_REQUEST = "req";

    private final ClusterKeys keys;
    private final SecureRandom random = new SecureRandom();
    private final CompactJws jws = new CompactJws();

    public ClusterCredentials(ClusterKeys keys) {
        this.keys = requireNonNull(keys, "keys is null");
    }

    /** What a verified credential says. */
    public record Verified(Principal principal, String nonce, Instant expires, String keyId) {}

    /**
     * Signs a credential for {@code principal}, valid for {@code ttl} from {@code now}, meant for
     * {@code audience}; {@code requestBody} (may be null) binds it to one request.
     */
    public String issue(Principal principal, String audience, byte[] requestBody, Instant now, Duration ttl) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        // The claims the JOSE library would write for the same credential (a single audience as
        // a string, times in whole seconds), written directly: see CompactJws.
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("aud", audience);
        claims.put("iat", Date.from(now).getTime() / 1000);
        claims.put("exp", Date.from(now.plus(ttl)).getTime() / 1000);
        claims.put("jti", HexFormat.of().formatHex(nonce));
        claims.put(CLAIM_UID, principal.uid());
        claims.put(CLAIM_GID, principal.gid());
        claims.put(CLAIM_USER, principal.userName());
        claims.put(CLAIM_GROUPS, principal.groups());
        claims.put(CLAIM_HOST, principal.host());
        if (requestBody != null) {
            claims.put(CLAIM_REQUEST, digest(requestBody));
        }
        return jws.sign(keys.signingKey(), claims);
    }

    /**
     * Checks signature (against any key of the set), audience, validity window and, when
     * {@code requestBody} is given, that the credential was made for exactly that body.
     */
    public Verified verify(String token, String audience, byte[] requestBody, Instant now) throws AuthException {
        if (token == null || token.isEmpty()) {
            throw new AuthException("no credential");
        }
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw new AuthException("malformed credential: " + e.getMessage(), e);
        }
        if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm())) {
            throw new AuthException("credential algorithm " + jwt.getHeader().getAlgorithm() + " is not HS256");
        }
        String keyId = Optional.ofNullable(jwt.getHeader().getKeyID()).orElse("");
        ClusterKeys.Key key = keys.find(keyId)
                .orElseThrow(() -> new AuthException("credential signed with unknown key '" + keyId + "'"));
        if (!jws.verifies(key, jwt.getSigningInput(), jwt.getSignature().decode())) {
            throw new AuthException("credential signature does not match key '" + keyId + "'");
        }
        checkWindow(claims.getIssueTime(), claims.getExpirationTime(), now);
        if (!claims.getAudience().contains(audience)) {
            throw new AuthException("credential meant for " + claims.getAudience() + ", not " + audience);
        }
        if (requestBody != null) {
            Object bound = claims.getClaim(CLAIM_REQUEST);
            if (!digest(requestBody).equals(bound)) {
                throw new AuthException("credential was issued for a different request");
            }
        }
        try {
            Principal principal = new Principal(
                    requiredLong(claims, CLAIM_UID),
                    requiredLong(claims, CLAIM_GID),
                    Optional.ofNullable(claims.getStringClaim(CLAIM_USER)).orElse(""),
                    groups(claims),
                    Optional.ofNullable(claims.getStringClaim(CLAIM_HOST)).orElse(""));
            return new Verified(
                    principal, claims.getJWTID(), claims.getExpirationTime().toInstant(), keyId);
        } catch (ParseException e) {
            throw new AuthException("malformed credential claims: " + e.getMessage(), e);
        }
    }

    static void checkWindow(Date issued, Date expires, Instant now) throws AuthException {
        if (issued == null || expires == null) {
            throw new AuthException("credential lacks issue or expiry time");
        }
        if (issued.toInstant().isAfter(now.plus(CLOCK_SKEW))) {
            throw new AuthException("credential issued in the future (" + issued.toInstant() + "); check clocks");
        }
        if (!expires.toInstant().isAfter(now)) {
            throw new AuthException("credential expired at " + expires.toInstant());
        }
    }

    private static long requiredLong(JWTClaimsSet claims, String name) throws ParseException, AuthException {
        Long value = claims.getLongClaim(name);
        if (value == null || value < 0) {
            throw new AuthException("credential lacks a valid " + name);
        }
        return value;
    }

    private static List<Long> groups(JWTClaimsSet claims) {
        Object raw = claims.getClaim(CLAIM_GROUPS);
        if (!(raw instanceof List<?> list)) {
            return List.of();
        }
        return list.stream()
                .filter(Number.class::isInstance)
                .map(n -> ((Number) n).longValue())
                .toList();
    }

    /** Base64url SHA-256: what binds a credential to one request body. */
    public static String digest(byte[] body) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(body);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
