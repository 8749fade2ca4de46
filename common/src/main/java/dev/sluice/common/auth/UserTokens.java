package dev.sluice.common.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * Slurm's {@code auth/jwt} user tokens: HS256 JWTs with the user name in the {@code sun}
 * claim, signed with the site's {@code jwt_hs256.key} (from {@code AuthAltParameters=jwt_key=}).
 * A token proves only "the key holder vouched for this user name until then"; the controller
 * maps the name to a uid itself.
 */
public final class UserTokens {
    /** {@code scontrol token}'s default lifespan, as Slurm's. */
    public static final Duration DEFAULT_LIFESPAN = Duration.ofSeconds(1800);

    private static final String CLAIM_USER = "sun";

    private final byte[] key;

    public UserTokens(byte[] key) {
        requireNonNull(key, "key is null");
        if (key.length < ClusterKeys.MIN_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "the JWT key is " + key.length + " bytes; HS256 needs at least " + ClusterKeys.MIN_KEY_BYTES);
        }
        this.key = key.clone();
    }

    /** A token for {@code userName}, valid for {@code lifespan} from {@code now}. */
    public String mint(String userName, Instant now, Duration lifespan) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(lifespan)))
                .claim(CLAIM_USER, userName)
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
            if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm())) {
                throw new AuthException("token algorithm " + jwt.getHeader().getAlgorithm() + " is not HS256");
            }
            if (!jwt.verify(new MACVerifier(key))) {
                throw new AuthException("token signature does not match");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Date issued = claims.getIssueTime() == null ? Date.from(now) : claims.getIssueTime();
            ClusterCredentials.checkWindow(issued, claims.getExpirationTime(), now);
            String user = claims.getStringClaim(CLAIM_USER);
            if (user == null || user.isBlank()) {
                throw new AuthException("token names no user (claim sun)");
            }
            return user;
        } catch (ParseException e) {
            throw new AuthException("malformed token: " + e.getMessage(), e);
        } catch (JOSEException e) {
            throw new AuthException("token signature check failed: " + e.getMessage(), e);
        }
    }
}
