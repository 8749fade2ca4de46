package dev.sluice.operator.reconcile;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hash of a configuration's files, put on a pod template so that a changed configuration
 * rolls the pods (Kubernetes restarts nothing when only a mounted file changes).
 */
final class Hashes {
    private Hashes() {}

    static String of(Map<String, String> files) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            new TreeMap<>(files).forEach((k, v) -> {
                sha.update(k.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
                sha.update(v.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            });
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
