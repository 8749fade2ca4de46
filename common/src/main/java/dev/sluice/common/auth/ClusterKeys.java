package dev.sluice.common.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster's shared secret keys. Either one raw key ({@code slurm.key}, as Slurm's
 * {@code auth/slurm}) or a JSON Web Key Set ({@code slurm.jwks}) of HS256 keys with distinct
 * {@code kid}s: the key marked {@code "use": "default"} (else the first) signs, every key
 * verifies, so a new key can be rolled out to all daemons before the old one is retired.
 */
public final class ClusterKeys {
    /** HMAC-SHA256 keys shorter than this are refused: a guessable key is no key. */
    public static final int MIN_KEY_BYTES = 32;

    public static final String KEY_FILE = "slurm.key";
    public static final String KEY_SET_FILE = "slurm.jwks";
    private static final String RAW_KEY_ID = "slurm.key";

    /** One key: its id (carried in credentials) and its secret bytes. */
    public record Key(String id, byte[] secret) {
        public Key {
            requireNonNull(id, "id is null");
            secret = secret.clone();
        }

        @Override
        public byte[] secret() {
            return secret.clone();
        }

        @Override
        public String toString() {
            return "Key[" + id + "]";
        }
    }

    private final List<Key> keys;

    private ClusterKeys(List<Key> keys) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a key set needs at least one key");
        }
        this.keys = List.copyOf(keys);
    }

    /** Keys given directly; the first signs. */
    public static ClusterKeys of(Key signing, Key... others) {
        List<Key> all = new ArrayList<>();
        all.add(signing);
        all.addAll(Arrays.asList(others));
        for (Key key : all) {
            checkLength(key.id(), key.secret().length);
        }
        return new ClusterKeys(all);
    }

    /**
     * Loads the keys that sit beside {@code slurm.conf}: {@code slurm.jwks} when present, else
     * {@code slurm.key}. Both must be unreadable by other users, as Slurm requires of its keys.
     */
    public static ClusterKeys loadFromConfigDir(Path configDir) throws AuthException {
        Path keySet = configDir.resolve(KEY_SET_FILE);
        if (Files.exists(keySet)) {
            return load(keySet);
        }
        return load(configDir.resolve(KEY_FILE));
    }

    /** Loads one key file: a {@code .jwks} key set, or any other file as one raw key. */
    public static ClusterKeys load(Path file) throws AuthException {
        if (!Files.exists(file)) {
            throw new AuthException("cluster key " + file + " not found (create it with: dd if=/dev/urandom of=" + file
                    + " bs=64 count=1; chmod 0600 " + file + ")");
        }
        checkPermissions(file);
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new AuthException("cannot read cluster key " + file + ": " + e.getMessage(), e);
        }
        if (file.getFileName().toString().endsWith(".jwks")) {
            return parseKeySet(file, new String(content, StandardCharsets.UTF_8));
        }
        checkLength(file.toString(), content.length);
        return new ClusterKeys(List.of(new Key(RAW_KEY_ID, content)));
    }

    private static ClusterKeys parseKeySet(Path file, String json) throws AuthException {
        JWKSet set;
        try {
            set = JWKSet.parse(json);
        } catch (ParseException e) {
            throw new AuthException(file + ": not a JSON Web Key Set: " + e.getMessage(), e);
        }
        List<Key> keys = new ArrayList<>();
        Key signing = null;
        for (JWK jwk : set.getKeys()) {
            if (!(jwk instanceof OctetSequenceKey oct)) {
                throw new AuthException(file + ": key " + jwk.getKeyID() + " is not a symmetric (oct) key");
            }
            String id = Optional.ofNullable(jwk.getKeyID())
                    .orElseThrow(() -> new AuthException(file + ": every key needs a \"kid\""));
            byte[] secret = oct.toByteArray();
            checkLength(file + " key " + id, secret.length);
            Key key = new Key(id, secret);
            if (keys.stream().anyMatch(k -> k.id().equals(id))) {
                throw new AuthException(file + ": key id " + id + " appears twice");
            }
            keys.add(key);
            Object use = jwk.toJSONObject().get("use");
            if (signing == null && "default".equals(use)) {
                signing = key;
            }
        }
        if (keys.isEmpty()) {
            throw new AuthException(file + ": the key set holds no keys");
        }
        if (signing != null) {
            keys.remove(signing);
            keys.add(0, signing);
        }
        return new ClusterKeys(keys);
    }

    private static void checkLength(String what, int length) {
        if (length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException(
                    what + " is " + length + " bytes; a cluster key needs at least " + MIN_KEY_BYTES);
        }
    }

    private static void checkPermissions(Path file) throws AuthException {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.contains(PosixFilePermission.OTHERS_READ)
                    || perms.contains(PosixFilePermission.OTHERS_WRITE)
                    || perms.contains(PosixFilePermission.GROUP_WRITE)) {
                throw new AuthException("cluster key " + file + " has permissions "
                        + PosixFilePermissions.toString(perms)
                        + "; it must not be readable by other users (chmod 0600 " + file + ")");
            }
        } catch (UnsupportedOperationException e) {
            // Non-POSIX file systems cannot express the rule; the key is still used.
        } catch (IOException e) {
            throw new AuthException("cannot stat cluster key " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes a fresh random raw key, owner-only, refusing to overwrite an existing one. */
    public static void generate(Path file) throws IOException {
        byte[] secret = new byte[MIN_KEY_BYTES * 2];
        new SecureRandom().nextBytes(secret);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(file, secret);
    }

    /** The key new credentials are signed with. */
    public Key signingKey() {
        return keys.getFirst();
    }

    /** The key with this id, if this set still holds it. */
    public Optional<Key> find(String id) {
        return keys.stream().filter(k -> k.id().equals(id)).findFirst();
    }

    public List<String> keyIds() {
        return keys.stream().map(Key::id).toList();
    }
}
