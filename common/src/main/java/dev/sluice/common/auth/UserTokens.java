package dev.sluice.common.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * Slurm's {@code auth/jwt} user tokens. HS256 JWTs with the user name in the {@code sun} claim,
 * signed with the site's {@code jwt_hs256.key} (from {@code AuthAltParameters=jwt_key=}); and,
 * with {@code jwks=}, RS256 tokens issued elsewhere, verified with the public key of the set whose
 * {@code kid} the token names. A token proves only "the key holder vouched for this user name
 * until then"; the controller maps the name to a uid itself. No other algorithm is taken, and
 * neither kind of key verifies the other kind of token (no HS/RS confusion).
 */
public final class UserTokens {
    /** {@code scontrol token}'s default lifespan, as Slurm's. */
    public static final Duration DEFAULT_LIFESPAN = Duration.ofSeconds(1800);

    /** The claim that names the user unless {@code userclaimfield=} names another. */
    public static final String DEFAULT_USER_CLAIM = "sun";

    private final byte[] key;
    private final JWKSet keySet;
    private final String userClaim;

    /** HS256 only, with the user in {@code sun}. */
    public UserTokens(byte[] key) {
        this(requireNonNull(key, "key is null"), null, DEFAULT_USER_CLAIM);
    }

    private UserTokens(byte[] key, JWKSet keySet, String userClaim) {
        if (key != null && key.length < ClusterKeys.MIN_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "the JWT key is " + key.length + " bytes; HS256 needs at least " + ClusterKeys.MIN_KEY_BYTES);
        }
        if (key == null && keySet == null) {
            throw new IllegalArgumentException("auth/jwt needs jwt_key= or jwks=");
        }
        this.key = key == null ? null : key.clone();
        this.keySet = keySet;
        this.userClaim = requireNonNull(userClaim, "userClaim is null");
    }

    /**
     * @param key the HS256 key, or null when only a key set is given
     * @param keySet public RSA keys with their {@code kid}, or null
     * @param userClaim the claim holding the user name
     */
    public static UserTokens of(byte[] key, JWKSet keySet, String userClaim) {
        return new UserTokens(key, keySet, userClaim);
    }

    /** Whether tokens can be minted here ({@code scontrol token} needs the HS256 key). */
    public boolean canMint() {
        return key != null;
    }

    /** A token for {@code userName}, valid for {@code lifespan} from {@code now}. */
    public String mint(String userName, Instant now, Duration lifespan) {
        if (key == null) {
            throw new IllegalStateException("no jwt_key: tokens are issued elsewhere (jwks=)");
        }
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(lifespan)))
                .claim(DEFAULT_USER_CLAIM, userName)
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            jwt.sign(new MACSigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("HS256 signing failed", e);
        }
        return jwt.serialize();
    }

    /** The user name a valid, unexpired token speaks for. */
    public String verify(String token, Instant now) throws AuthException {
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
            JWSVerifier verifier;
            if (JWSAlgorithm.HS256.equals(alg) && key != null) {
                verifier = new MACVerifier(key);
            } else if (JWSAlgorithm.RS256.equals(alg) && keySet != null) {
                String kid = jwt.getHeader().getKeyID();
                if (kid == null) {
                    throw new AuthException("RS256 token names no key (kid)");
                }
                JWK jwk = keySet.getKeyByKeyId(kid);
                if (!(jwk instanceof RSAKey rsa)) {
                    throw new AuthException("no RSA key " + kid + " in the jwks");
                }
                verifier = new RSASSAVerifier(rsa);
            } else {
                throw new AuthException("token algorithm " + alg + " is not accepted here");
            }
            if (!jwt.verify(verifier)) {
                throw new AuthException("token signature does not match");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Date issued = claims.getIssueTime() == null ? Date.from(now) : claims.getIssueTime();
            ClusterCredentials.checkWindow(issued, claims.getExpirationTime(), now);
            String user = claims.getStringClaim(userClaim);
            if (user == null || user.isBlank()) {
                throw new AuthException("token names no user (claim " + userClaim + ")");
            }
            return user;
        } catch (ParseException e) {
            throw new AuthException("malformed token: " + e.getMessage(), e);
        } catch (JOSEException e) {
            throw new AuthException("token signature check failed: " + e.getMessage(), e);
        }
    }
}
