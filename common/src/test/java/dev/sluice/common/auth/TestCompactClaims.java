package dev.sluice.common.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/**
 * The credential check without the JOSE library's parser ({@link CompactClaims}) against the
 * check through it ({@link ClusterCredentials#verifyWithJose}): for issued, forged and altered
 * tokens, both accept with the same principal, nonce, expiry and key, or both refuse in the same
 * words. The forgeries are signed with the cluster key where the point is what the parser makes
 * of the claims, and left unsigned or signed with another key where it is the signature.
 */
class TestCompactClaims {
    private static final ClusterKeys.Key KEY = TestClusterCredentials.key("k1", 7);
    private static final ClusterKeys.Key OTHER = TestClusterCredentials.key("k2", 9);
    private static final ClusterCredentials CREDENTIALS = new ClusterCredentials(ClusterKeys.of(KEY));
    private static final Instant NOW = Instant.parse("2026-12-05T23:00:00Z");
    private static final byte[] BODY = "launch".getBytes(StandardCharsets.UTF_8);
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    /** Changes to a token's header (JSON text), re-signed with the cluster key. */
    private static final List<String> HEADERS = List.of(
            "{\"alg\":\"none\"}",
            "{\"kid\":\"k1\",\"alg\":\"none\"}",
            "{\"kid\":\"k1\",\"alg\":\"HS384\"}",
            "{\"kid\":\"k1\",\"alg\":\"RS256\"}",
            "{\"kid\":\"k1\",\"alg\":\"hs256\"}",
            "{\"alg\":\"HS256\"}",
            "{\"alg\":\"HS256\",\"kid\":\"k1\"}",
            "{\"kid\":\"k2\",\"alg\":\"HS256\"}",
            "{\"kid\":\"k1\",\"alg\":\"HS256\",\"typ\":\"JWT\"}",
            "{\"kid\":\"k1\",\"alg\":\"HS256\",\"crit\":[\"exp\"]}",
            "{\"kid\":1,\"alg\":\"HS256\"}",
            "{\"kid\":\"k1\",\"alg\":[\"HS256\"]}",
            "{\"kid\":\"k1\",\"kid\":\"k1\",\"alg\":\"HS256\"}",
            "{ \"kid\":\"k1\",\"alg\":\"HS256\"}",
            "{\"kid\":\"k\\u0031\",\"alg\":\"HS256\"}",
            "[]",
            "");

    /** Changes to a token's claims (JSON text), re-signed with the cluster key. */
    private static final List<UnaryOperator<String>> PAYLOADS = List.of(
            p -> p.replaceFirst("\"uid\":\\d+", "\"uid\":0"),
            p -> p.replaceFirst("\"uid\":\\d+", "\"uid\":-1"),
            p -> p.replaceFirst("\"uid\":\\d+", "\"uid\":\"0\""),
            p -> p.replaceFirst("\"uid\":\\d+", "\"uid\":1.5"),
            p -> p.replaceFirst("\"uid\":\\d+", "\"uid\":1e3"),
            p -> p.replaceFirst("\"uid\":\\d+", "\"uid\":007"),
            p -> p.replaceFirst("\"uid\":\\d+", "\"uid\":-0"),
            p -> p.replaceFirst("\"uid\":\\d+", "\"uid\":99999999999999999999"),
            p -> p.replaceFirst("\"uid\":\\d+,", ""),
            p -> p.replaceFirst("\"gid\":\\d+,", ""),
            p -> p.replaceFirst("\"exp\":\\d+,", ""),
            p -> p.replaceFirst("\"iat\":\\d+,", ""),
            p -> p.replaceFirst("\"exp\":\\d+", "\"exp\":\"soon\""),
            p -> p.replaceFirst("\"exp\":\\d+", "\"exp\":9223372036854775"),
            p -> p.replaceFirst("\"iat\":\\d+", "\"iat\":-100"),
            p -> p.replaceFirst("\"aud\":\"[^\"]*\"", "\"aud\":[\"slurmd\"]"),
            p -> p.replaceFirst("\"aud\":\"[^\"]*\"", "\"aud\":\"slurmctld\""),
            p -> p.replaceFirst("\"aud\":\"[^\"]*\",", ""),
            p -> p.replaceFirst("\"jti\":\"[^\"]*\"", "\"jti\":5"),
            p -> p.replaceFirst("\"jti\":\"[^\"]*\",", ""),
            p -> p.replaceFirst("\"groups\":\\[[^]]*]", "\"groups\":[\"wheel\"]"),
            p -> p.replaceFirst("\"groups\":\\[[^]]*]", "\"groups\":[1,[2]]"),
            p -> p.replaceFirst("\"groups\":\\[[^]]*]", "\"groups\":[]"),
            p -> p.replaceFirst("\"groups\":\\[[^]]*]", "\"groups\":7"),
            p -> p.replaceFirst("\"req\":\"[^\"]*\"", "\"req\":\"x\""),
            p -> p.replaceFirst("\"req\":\"[^\"]*\",", ""),
            p -> p.replaceFirst("\"host\":\"[^\"]*\"", "\"host\":null"),
            p -> p.replaceFirst("\"user\":\"[^\"]*\"", "\"user\":true"),
            p -> p.replaceFirst("\\{", "{\"nbf\":1,"),
            p -> p.replaceFirst("\\{", "{\"uid\":0,"),
            p -> p.replaceFirst("\\{", "{ "),
            p -> p + " ",
            p -> p + "{}",
            p -> p.replace(",", ", "),
            p -> "{}",
            p -> "[]",
            p -> "null");

    @Property(tries = 1500)
    void bothChecksAgreeOnIssuedForgedAndAlteredTokens(
            @ForAll @StringLength(max = 12) String user,
            @ForAll @LongRange(min = 0, max = 4294967295L) long uid,
            @ForAll List<@LongRange(min = 0, max = 4294967295L) Long> groups,
            @ForAll @IntRange(min = 0, max = 9) int kind,
            @ForAll @IntRange(min = 0, max = 200) int which,
            @ForAll @LongRange(min = -400, max = 400) long clockSeconds)
            throws Exception {
        Principal p = new Principal(uid, uid + 1, user, groups, "node" + which);
        String token = CREDENTIALS.issue(p, "slurmd", BODY, NOW, Duration.ofSeconds(300));
        String[] parts = token.split("\\.", -1);
        String header = decode(parts[0]);
        String payload = decode(parts[1]);
        String forged = switch (kind) {
            case 0 -> token;
            case 1 -> signed(HEADERS.get(which % HEADERS.size()), payload, KEY);
            case 2 -> signed(header, PAYLOADS.get(which % PAYLOADS.size()).apply(payload), KEY);
            case 3 -> signed(header, payload, OTHER);
            // The claims changed, the signature kept.
            case 4 ->
                parts[0] + "."
                        + B64.encodeToString(
                                bytes(PAYLOADS.get(which % PAYLOADS.size()).apply(payload))) + "." + parts[2];
            case 5 -> parts[0] + "." + parts[1] + "." + flip(parts[2], which);
            case 6 -> token.substring(0, Math.max(0, token.length() - 1 - which % 8));
            case 7 -> parts[0] + "." + parts[1] + "." + (which % 2 == 0 ? "" : "AA");
            case 8 -> parts[0] + "." + parts[1] + "." + parts[2] + (which % 2 == 0 ? "." : "==");
            default -> "e30." + parts[1] + "." + parts[2];
        };
        Instant now = NOW.plusSeconds(clockSeconds);
        String audience = which % 11 == 0 ? "slurmctld" : "slurmd";
        byte[] body = which % 13 == 0 ? "other".getBytes(StandardCharsets.UTF_8) : BODY;

        assertThat(outcome(() -> CREDENTIALS.verify(forged, audience, body, now)))
                .isEqualTo(outcome(() -> CREDENTIALS.verifyWithJose(forged, audience, body, now)));
    }

    @Test
    void anIssuedTokenIsReadWithoutTheJoseLibrary() {
        Principal p = new Principal(1001, 1001, "alice", List.of(1001L, 27L), "login1");
        String token = CREDENTIALS.issue(p, "slurmd", BODY, NOW, Duration.ofSeconds(300));
        CompactClaims.Read read = CompactClaims.read(token);
        assertThat(read).isNotNull();
        assertThat(read.header()).containsEntry("alg", "HS256").containsEntry("kid", "k1");
        assertThat(read.payload())
                .containsEntry("uid", 1001L)
                .containsEntry("groups", List.of(1001L, 27L))
                .containsEntry("aud", "slurmd");
    }

    @Test
    void forgedTokensReadWithoutTheJoseLibraryAreRefused() {
        Principal root = new Principal(0, 0, "root", List.of(), "login1");
        String token = CREDENTIALS.issue(root, "slurmd", null, NOW, Duration.ofSeconds(300));
        String[] parts = token.split("\\.");
        String payload = decode(parts[1]);
        // alg none goes to the JOSE library (another algorithm), which refuses it as before; the
        // others are read without it and refused by the check itself.
        String none = B64.encodeToString(bytes("{\"kid\":\"k1\",\"alg\":\"none\"}")) + "." + parts[1] + ".AA";
        assertThatThrownBy(() -> CREDENTIALS.verify(none, "slurmd", null, NOW)).isInstanceOf(AuthException.class);
        String otherKey = signed(decode(parts[0]), payload, OTHER);
        assertThat(CompactClaims.read(otherKey)).isNotNull();
        assertThatThrownBy(() -> CREDENTIALS.verify(otherKey, "slurmd", null, NOW))
                .hasMessageContaining("signature does not match");
        String flipped = parts[0] + "." + parts[1] + "." + flip(parts[2], 3);
        assertThat(CompactClaims.read(flipped)).isNotNull();
        assertThatThrownBy(() -> CREDENTIALS.verify(flipped, "slurmd", null, NOW))
                .hasMessageContaining("signature does not match");
        assertThatThrownBy(() -> CREDENTIALS.verify(token, "slurmd", null, NOW.plusSeconds(300)))
                .hasMessageContaining("expired");
        String unknownKey = signed("{\"kid\":\"k2\",\"alg\":\"HS256\"}", payload, OTHER);
        assertThatThrownBy(() -> CREDENTIALS.verify(unknownKey, "slurmd", null, NOW))
                .hasMessageContaining("unknown key 'k2'");
    }

    private static Object outcome(Check check) {
        try {
            return check.run();
        } catch (AuthException e) {
            return "refused: " + e.getMessage();
        }
    }

    private interface Check {
        ClusterCredentials.Verified run() throws AuthException;
    }

    private static String signed(String header, String payload, ClusterKeys.Key key) {
        try {
            String input = B64.encodeToString(bytes(header)) + "." + B64.encodeToString(bytes(payload));
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.secret(), "HmacSHA256"));
            return input + "." + B64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One character of a base64url signature changed to another. */
    private static String flip(String signature, int which) {
        int i = which % signature.length();
        char c = signature.charAt(i) == 'A' ? 'B' : 'A';
        return signature.substring(0, i) + c + signature.substring(i + 1);
    }

    private static String decode(String part) {
        return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
