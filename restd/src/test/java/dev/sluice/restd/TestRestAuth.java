package dev.sluice.restd;

import static dev.sluice.restd.OpenApiDocs.assertValid;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.restd.RestFixture.Answer;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Token attacks: each is refused with 401 and Slurm's error body, and the controller is never
 * asked anything.
 */
class TestRestAuth {
    private static final String JOBS = "/slurm/v0.0.44/jobs";
    private RestFixture rest;

    @BeforeEach
    void start() throws IOException {
        OpenApiDocs.document();
        rest = new RestFixture();
    }

    @AfterEach
    void stop() {
        if (rest != null) {
            rest.close();
        }
    }

    private void assertRefused(String user, String token) {
        Answer a = rest.send("GET", JOBS, null, user, token);
        assertThat(a.status()).isEqualTo(401);
        assertValid("v0.0.44_openapi_resp", a.body());
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(6000);
        assertThat(a.body().at("/errors/0/description").asText()).isEqualTo("Authentication failure");
        assertThat(rest.controller.seen).isEmpty();
    }

    private JWTClaimsSet claims(String user, Instant issued, Duration life) {
        return new JWTClaimsSet.Builder()
                .issueTime(Date.from(issued))
                .expirationTime(Date.from(issued.plus(life)))
                .claim("sun", user)
                .build();
    }

    @Test
    void aValidTokenIsAcceptedAndForwardedAsIs() {
        String token = rest.token("alice");
        Answer a = rest.send("GET", JOBS, null, "alice", token);
        assertThat(a.status()).isEqualTo(200);
        assertThat(rest.controller.seen).singleElement().satisfies(s -> {
            assertThat(s.user()).isEqualTo("alice");
            assertThat(s.token()).isEqualTo(token);
        });
    }

    @Test
    void theUserHeaderMayBeLeftOut() {
        assertThat(rest.send("GET", JOBS, null, null, rest.token("alice")).status())
                .isEqualTo(200);
    }

    @Test
    void noTokenIsRefused() {
        assertRefused("alice", null);
    }

    @Test
    void expiredTokenIsRefused() {
        assertRefused("alice", rest.tokens.mint("alice", Instant.now().minusSeconds(7200), Duration.ofSeconds(1800)));
    }

    @Test
    void tokenSignedWithAnotherKeyIsRefused() {
        byte[] other = new byte[64];
        new SecureRandom().nextBytes(other);
        assertRefused("alice", new UserTokens(other).mint("alice", Instant.now(), Duration.ofMinutes(5)));
    }

    @Test
    void tokenWithAlteredClaimsIsRefused() {
        String[] parts = rest.token("alice").split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1])).replace("alice", "root1");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes())
                + "." + parts[2];
        assertRefused("root1", forged);
    }

    @Test
    void unsignedTokenIsRefused() {
        assertRefused("root", new PlainJWT(claims("root", Instant.now(), Duration.ofMinutes(5))).serialize());
    }

    @Test
    void otherHmacAlgorithmIsRefused() throws JOSEException {
        SignedJWT jwt =
                new SignedJWT(new JWSHeader(JWSAlgorithm.HS512), claims("alice", Instant.now(), Duration.ofMinutes(5)));
        jwt.sign(new MACSigner(rest.key));
        assertRefused("alice", jwt.serialize());
    }

    @Test
    void rsaSignedTokenIsRefused() throws JOSEException {
        RSAKey rsa = new RSAKeyGenerator(2048).generate();
        SignedJWT jwt =
                new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims("alice", Instant.now(), Duration.ofMinutes(5)));
        jwt.sign(new RSASSASigner(rsa));
        assertRefused("alice", jwt.serialize());
    }

    @Test
    void oversizedTokenIsRefused() {
        assertRefused("alice", "a".repeat(9000));
    }

    @Test
    void garbageTokenIsRefused() {
        assertRefused("alice", "not-a-jwt");
    }

    @Test
    void userHeaderNamingSomeoneElseIsRefused() {
        assertRefused("root", rest.token("alice"));
    }

    @Test
    void malformedJsonChangesNothing() {
        Answer a = rest.as("POST", "/slurm/v0.0.44/job/submit", "{\"job\": {\"script\": ");
        assertThat(a.status()).isEqualTo(400);
        assertValid("v0.0.44_openapi_job_submit_response", a.body());
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(9001);
        assertThat(rest.controller.seen).isEmpty();
        assertThat(rest.as("POST", "/slurm/v0.0.44/job/submit", "{\"job\":{}} trailing")
                        .status())
                .isEqualTo(400);
        assertThat(rest.as("POST", "/slurm/v0.0.44/node/n1", "{\"state\":[\"DRAIN\"],\"state\":[\"RESUME\"]}")
                        .status())
                .isEqualTo(400);
        assertThat(rest.controller.seen).isEmpty();
    }

    @Test
    void anOversizedBodyIsRefusedUnparsedAndTheRefusalReachesTheClient() {
        String big = "{\"job\":{\"script\":\"" + "x".repeat(1024 * 1024) + "\"}}";
        // Several times: the client is still sending when the refusal is ready, and a server that
        // closed at once reset the connection under the answer now and then.
        for (int i = 0; i < 8; i++) {
            Answer a = rest.as("POST", "/slurm/v0.0.44/job/submit", big);
            assertThat(a.status()).isEqualTo(413);
            assertValid("v0.0.44_openapi_job_submit_response", a.body());
        }
        assertThat(rest.controller.seen).isEmpty();
    }

    @Test
    void submissionWithoutScriptIsRefusedBeforeTheController() {
        Answer a = rest.as("POST", "/slurm/v0.0.44/job/submit", "{\"job\":{\"name\":\"x\"}}");
        assertThat(a.status()).isEqualTo(400);
        assertValid("v0.0.44_openapi_job_submit_response", a.body());
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(9002);
        assertThat(rest.controller.seen).isEmpty();
    }
}
