package dev.sluice.common.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.Header;
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
import java.util.Set;

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
    // A DRBG in the JVM, not the platform's default (NativePRNG), which reads /dev/urandom under
    // a lock for every nonce: a system call per credential, and the controller signs one per
    // launch and per call.
    private final SecureRandom random = drbg();
    private final CompactJws jws = new CompactJws();

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (java.security.NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

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
        // The JOSE library's header limit (20,000 characters) bounds the header alone; a token
        // shorter than it cannot reach it.
        CompactClaims.Read read = token.length() < Header.MAX_HEADER_STRING_LENGTH ? CompactClaims.read(token) : null;
        Verified compact = read == null ? null : verifyCompact(read, audience, requestBody, now);
        return compact != null ? compact : verifyWithJose(token, audience, requestBody, now);
    }

    /**
     * {@link #verify} of a token {@link CompactClaims} could read: the same checks in the same
     * order, with the same words. Null when a member is not of the type this credential's
     * writer gives it (the JOSE library then decides, as for any other token).
     */
    private Verified verifyCompact(CompactClaims.Read read, String audience, byte[] requestBody, Instant now)
            throws AuthException {
        Map<String, Object> header = read.header();
        Map<String, Object> claims = read.payload();
        if (!(header.get("alg") instanceof String alg)
                || !HEADER.containsAll(header.keySet())
                || !(header.getOrDefault("kid", "") instanceof String keyId)
                || !alg.equals(JWSAlgorithm.HS256.getName())
                || !claimsOfKnownTypes(claims)) {
            return null;
        }
        ClusterKeys.Key key = keys.find(keyId)
                .orElseThrow(() -> new AuthException("credential signed with unknown key '" + keyId + "'"));
        if (!jws.verifies(key, read.signingInput(), read.signature())) {
            throw new AuthException("credential signature does not match key '" + keyId + "'");
        }
        Date expires = seconds(claims.get("exp"));
        checkWindow(seconds(claims.get("iat")), expires, now);
        List<String> audiences = claims.get("aud") instanceof String aud ? List.of(aud) : List.of();
        if (!audiences.contains(audience)) {
            throw new AuthException("credential meant for " + audiences + ", not " + audience);
        }
        if (requestBody != null && !digest(requestBody).equals(claims.get(CLAIM_REQUEST))) {
            throw new AuthException("credential was issued for a different request");
        }
        Principal principal = new Principal(
                requiredLong(claims.get(CLAIM_UID), CLAIM_UID),
                requiredLong(claims.get(CLAIM_GID), CLAIM_GID),
                (String) claims.getOrDefault(CLAIM_USER, ""),
                groups(claims.get(CLAIM_GROUPS)),
                (String) claims.getOrDefault(CLAIM_HOST, ""));
        return new Verified(principal, (String) claims.get("jti"), expires.toInstant(), keyId);
    }

    private static final Set<String> HEADER = Set.of("alg", "kid");

    /** The members {@link #issue} writes, each with the type it writes (times, ids: Long). */
    private static final Map<String, Class<?>> CLAIM_TYPES = Map.of(
            "aud",
            String.class,
            "iat",
            Long.class,
            "exp",
            Long.class,
            "jti",
            String.class,
            CLAIM_UID,
            Long.class,
            CLAIM_GID,
            Long.class,
            CLAIM_USER,
            String.class,
            CLAIM_GROUPS,
            List.class,
            CLAIM_HOST,
            String.class,
            CLAIM_REQUEST,
            String.class);

    private static boolean claimsOfKnownTypes(Map<String, Object> claims) {
        for (var e : claims.entrySet()) {
            Class<?> type = CLAIM_TYPES.get(e.getKey());
            if (type == null || !type.isInstance(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** A NumericDate as the JOSE library reads one: whole seconds, multiplied as it does. */
    private static Date seconds(Object value) {
        return value == null ? null : new Date((Long) value * 1000L);
    }

    private static long requiredLong(Object value, String name) throws AuthException {
        if (value == null || (Long) value < 0) {
            throw new AuthException("credential lacks a valid " + name);
        }
        return (Long) value;
    }

    private static List<Long> groups(Object value) {
        if (!(value instanceof List<?> list)) {
            return List.of();
        }
        return list.stream().map(n -> (Long) n).toList();
    }

    /** {@link #verify} through the JOSE library's parser: any token {@link CompactClaims} does not read. */
    Verified verifyWithJose(String token, String audience, byte[] requestBody, Instant now) throws AuthException {
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
        return Base64.getUrlEncoder().withoutPadding().encodeToString(sha256().digest(body));
    }

    /**
     * A fresh SHA-256, cloned from one made once: {@code getInstance} looks the provider up on
     * every call, and every signed call and launch takes a digest on both ends.
     */
    private static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA256.clone();
        } catch (CloneNotSupportedException e) {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException missing) {
                throw new IllegalStateException("SHA-256 missing from the JDK", missing);
            }
        }
    }

    private static final MessageDigest SHA256;

    static {
        try {
            SHA256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
