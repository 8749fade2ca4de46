package dev.sluice.common.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes an HS256 JWS in compact form ({@code header.payload.signature}, RFC 7515) from claims
 * of a few plain types, without a JSON library: every launch and every call between daemons
 * carries a fresh credential, and building one through the JOSE library's claims set and JSON
 * writer, with a new {@link Mac} looked up each time, was the larger part of the controller's
 * cost per launch. {@link CompactClaims} reads such a token back without the library;
 * the {@link Mac} of each key is made once and cloned per signature and per check.
 */
final class CompactJws {
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    /** A key's {@link Mac}, initialised once; kept with the secret it was made from. */
    private record KeyedMac(byte[] secret, Mac mac) {}

    private final Map<String, KeyedMac> macs = new ConcurrentHashMap<>();

    /**
     * @param claims values that are {@link String}, {@link Long}, {@link Integer} or a {@link
     *     List} of {@link Long}, in the order written
     */
    String sign(ClusterKeys.Key key, Map<String, Object> claims) {
        StringBuilder header = new StringBuilder("{\"kid\":");
        string(header, key.id());
        header.append(",\"alg\":\"HS256\"}");
        StringBuilder payload = new StringBuilder(256).append('{');
        for (var e : claims.entrySet()) {
            if (payload.length() > 1) {
                payload.append(',');
            }
            string(payload, e.getKey());
            payload.append(':');
            value(payload, e.getValue());
        }
        payload.append('}');
        String input = B64.encodeToString(header.toString().getBytes(StandardCharsets.UTF_8)) + "."
                + B64.encodeToString(payload.toString().getBytes(StandardCharsets.UTF_8));
        byte[] signature = mac(key).doFinal(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + B64.encodeToString(signature);
    }

    /**
     * Whether {@code signature} is the HS256 MAC of {@code signingInput} under {@code key},
     * compared in constant time. The caller parses the token (with the JOSE library); this only
     * spares it a new {@link Mac} per check, as {@link #sign} is spared one.
     */
    boolean verifies(ClusterKeys.Key key, byte[] signingInput, byte[] signature) {
        return MessageDigest.isEqual(mac(key).doFinal(signingInput), signature);
    }

    private Mac mac(ClusterKeys.Key key) {
        KeyedMac cached = macs.get(key.id());
        // A reloaded key file may give an id another secret: the cache follows the secret.
        if (cached == null || !Arrays.equals(cached.secret(), key.secret())) {
            cached = new KeyedMac(key.secret().clone(), newMac(key));
            macs.put(key.id(), cached);
        }
        try {
            return (Mac) cached.mac().clone();
        } catch (CloneNotSupportedException e) {
            return newMac(key);
        }
    }

    private static Mac newMac(ClusterKeys.Key key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.secret(), "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HS256 signing failed", e);
        }
    }

    private static void value(StringBuilder out, Object v) {
        switch (v) {
            case String s -> string(out, s);
            case Long n -> out.append(n.longValue());
            case Integer n -> out.append(n.intValue());
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    value(out, list.get(i));
                }
                out.append(']');
            }
            default ->
                throw new IllegalArgumentException(
                        "no JSON form for a " + v.getClass().getName());
        }
    }

    /** A JSON string (RFC 8259): quotes, backslashes and control characters escaped. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
