package dev.sluice.common.auth;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a compact JWS in exactly the shape {@link CompactJws} writes, without a JSON library:
 * three base64url parts, a header of {@code kid} and {@code alg} strings, and a payload of flat
 * members whose values are strings without escapes, integers or arrays of integers, with no
 * whitespace. Every call between daemons and every completion report carries a credential, and
 * the JOSE library's parser (a JSON tree through Gson, then a claims set) was most of the cost
 * of checking one.
 *
 * <p>Anything else (an escape, a fraction, whitespace, a repeated or nested member, another
 * header parameter, a part that is not strict base64url) is not refused here: {@link #read}
 * answers null and the caller hands the token to the JOSE library, which accepts or refuses it
 * as before. So a token read here must mean what the JOSE library would make of it; {@code
 * TestCompactClaims} checks the two against each other on issued, forged and altered tokens.
 */
final class CompactClaims {
    private static final Base64.Decoder B64 = Base64.getUrlDecoder();

    /**
     * A token as read: its header's members, its payload's, the bytes signed (the first two parts
     * as they came) and the signature.
     */
    record Read(Map<String, Object> header, Map<String, Object> payload, byte[] signingInput, byte[] signature) {}

    private CompactClaims() {}

    /** The token's parts, or null when it is not in the shape this reads (see the class). */
    static Read read(String token) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (second < 0 || token.indexOf('.', second + 1) >= 0 || second == token.length() - 1) {
            return null;
        }
        try {
            Map<String, Object> header = object(B64.decode(token.substring(0, first)));
            Map<String, Object> payload = object(B64.decode(token.substring(first + 1, second)));
            if (header == null || payload == null) {
                return null;
            }
            byte[] signature = B64.decode(token.substring(second + 1));
            return new Read(header, payload, token.substring(0, second).getBytes(StandardCharsets.US_ASCII), signature);
        } catch (IllegalArgumentException notBase64Url) {
            return null;
        }
    }

    /** A flat JSON object of the shape above, or null. */
    static Map<String, Object> object(byte[] utf8) {
        return new Reader(new String(utf8, StandardCharsets.UTF_8)).object();
    }

    private static final class Reader {
        private final String s;
        private int at;

        Reader(String s) {
            this.s = s;
        }

        Map<String, Object> object() {
            if (!take('{')) {
                return null;
            }
            Map<String, Object> members = new HashMap<>();
            if (!take('}')) {
                do {
                    String name = string();
                    if (name == null || !take(':')) {
                        return null;
                    }
                    Object value = value();
                    if (value == null || members.put(name, value) != null) {
                        return null;
                    }
                } while (take(','));
                if (!take('}')) {
                    return null;
                }
            }
            return at == s.length() ? members : null;
        }

        private Object value() {
            if (at >= s.length()) {
                return null;
            }
            char c = s.charAt(at);
            if (c == '"') {
                return string();
            }
            if (c == '[') {
                at++;
                List<Long> items = new ArrayList<>();
                if (take(']')) {
                    return items;
                }
                do {
                    Long n = integer();
                    if (n == null) {
                        return null;
                    }
                    items.add(n);
                } while (take(','));
                return take(']') ? items : null;
            }
            return integer();
        }

        /** A string without escapes or control characters (those are left to the JOSE library). */
        private String string() {
            if (!take('"')) {
                return null;
            }
            int start = at;
            while (at < s.length()) {
                char c = s.charAt(at);
                if (c == '"') {
                    return s.substring(start, at++);
                }
                if (c == '\\' || c < 0x20) {
                    return null;
                }
                at++;
            }
            return null;
        }

        /** An integer as JSON writes one (no leading zero, no -0) that fits a long. */
        private Long integer() {
            int start = at;
            if (at < s.length() && s.charAt(at) == '-') {
                at++;
            }
            int digits = at;
            while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') {
                at++;
            }
            int length = at - digits;
            if (length == 0 || length > 18 || (length > 1 && s.charAt(digits) == '0')) {
                return null;
            }
            long value = Long.parseLong(s, start, at, 10);
            return value == 0 && digits > start ? null : value;
        }

        private boolean take(char c) {
            if (at < s.length() && s.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }
    }
}
