package dev.sluice.common.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * Credentials written without the JOSE library's writer read back, through that library, as
 * the claims it would have written itself: any user or host name (quotes, backslashes, control
 * characters, non-ASCII), any ids and groups, a signature that checks with the key.
 */
class TestCompactJws {
    private static final ClusterKeys.Key KEY = TestClusterCredentials.key("k1", 7);

    @Property(tries = 200)
    void theJoseLibraryReadsWhatWasIssued(
            @ForAll String user,
            @ForAll String host,
            @ForAll @LongRange(min = 0, max = 4294967295L) long uid,
            @ForAll List<@LongRange(min = 0, max = 4294967295L) Long> groups,
            @ForAll @LongRange(min = 0, max = 4_000_000_000_000L) long millis)
            throws Exception {
        Principal p = new Principal(uid, uid + 1, user, groups, host);
        Instant now = Instant.ofEpochMilli(millis);
        byte[] body = "request".getBytes(StandardCharsets.UTF_8);
        String token =
                new ClusterCredentials(ClusterKeys.of(KEY)).issue(p, "slurmd", body, now, Duration.ofSeconds(300));

        SignedJWT jwt = SignedJWT.parse(token);
        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.HS256);
        assertThat(jwt.getHeader().getKeyID()).isEqualTo("k1");
        assertThat(jwt.verify(new MACVerifier(KEY.secret()))).isTrue();
        var claims = jwt.getJWTClaimsSet();
        assertThat(claims.getAudience()).containsExactly("slurmd");
        assertThat(claims.getIssueTime()).isEqualTo(new Date(Date.from(now).getTime() / 1000 * 1000));
        assertThat(claims.getExpirationTime())
                .isEqualTo(new Date(Date.from(now.plusSeconds(300)).getTime() / 1000 * 1000));
        assertThat(claims.getJWTID()).hasSize(32);
        assertThat(claims.getLongClaim("uid")).isEqualTo(uid);
        assertThat(claims.getLongClaim("gid")).isEqualTo(uid + 1);
        assertThat(claims.getStringClaim("user")).isEqualTo(user);
        assertThat(claims.getStringClaim("host")).isEqualTo(host);
        assertThat(claims.getStringClaim("req")).isEqualTo(ClusterCredentials.digest(body));
        assertThat(((List<?>) claims.getClaim("groups")).stream().map(n -> ((Number) n).longValue()))
                .containsExactlyElementsOf(groups);
    }
}
