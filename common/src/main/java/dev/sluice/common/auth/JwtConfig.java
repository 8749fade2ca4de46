package dev.sluice.common.auth;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code AuthAltTypes=auth/jwt} and its {@code AuthAltParameters}, read the same way by the
 * controller, the accounting daemon and the REST daemon: {@code jwt_key=PATH} (the HS256 key;
 * the controller's default is {@code jwt_hs256.key} in StateSaveLocation), {@code jwks=PATH} (a
 * JSON Web Key Set of public RSA keys for RS256 tokens issued elsewhere) and
 * {@code userclaimfield=NAME} (the claim holding the user name, {@code sun} by default).
 */
public final class JwtConfig {
    private JwtConfig() {}

    /**
     * Empty when {@code auth/jwt} is not among the types.
     *
     * @param defaultKeyDir where {@code jwt_hs256.key} is looked for when neither {@code jwt_key=}
     *     nor {@code jwks=} is given; empty: one of them must be
     * @throws AuthException a key that is missing, unreadable, too short, not private, or a key
     *     set with no usable RSA key
     */
    public static Optional<UserTokens> load(
            List<String> altTypes, List<String> altParameters, Optional<Path> defaultKeyDir) throws AuthException {
        if (altTypes.stream().noneMatch(t -> t.strip().equalsIgnoreCase("auth/jwt"))) {
            return Optional.empty();
        }
        Optional<Path> keyPath = Optional.empty();
        Optional<Path> jwksPath = Optional.empty();
        String claim = UserTokens.DEFAULT_USER_CLAIM;
        for (String p : altParameters) {
            String[] kv = p.split("=", 2);
            if (kv.length != 2) {
                continue;
            }
            switch (kv[0].strip().toLowerCase(java.util.Locale.ROOT)) {
                case "jwt_key" -> keyPath = Optional.of(Path.of(kv[1].strip()));
                case "jwks" -> jwksPath = Optional.of(Path.of(kv[1].strip()));
                case "userclaimfield" -> claim = kv[1].strip();
                default -> {
                    // other plugins' parameters
                }
            }
        }
        if (keyPath.isEmpty() && jwksPath.isEmpty()) {
            keyPath = defaultKeyDir.map(d -> d.resolve("jwt_hs256.key"));
            if (keyPath.isEmpty()) {
                throw new AuthException("AuthAltTypes=auth/jwt needs AuthAltParameters=jwt_key=PATH or jwks=PATH");
            }
        }
        byte[] key = keyPath.isPresent()
                ? ClusterKeys.load(keyPath.get()).signingKey().secret()
                : null;
        JWKSet set = jwksPath.isPresent() ? readKeySet(jwksPath.get()) : null;
        try {
            return Optional.of(UserTokens.of(key, set, claim));
        } catch (IllegalArgumentException e) {
            throw new AuthException(e.getMessage(), e);
        }
    }

    /**
     * The RSA public keys of a key set file that have a {@code kid}; the file must not be
     * writable by others (whoever could write it could add a key).
     */
    static JWKSet readKeySet(Path file) throws AuthException {
        try {
            if (Files.getPosixFilePermissions(file).contains(PosixFilePermission.OTHERS_WRITE)
                    || Files.getPosixFilePermissions(file).contains(PosixFilePermission.GROUP_WRITE)) {
                throw new AuthException(file + " is writable by others");
            }
            JWKSet all = JWKSet.load(file.toFile());
            List<JWK> usable = new ArrayList<>();
            for (JWK k : all.getKeys()) {
                if (k instanceof RSAKey rsa && k.getKeyID() != null) {
                    usable.add(rsa.toPublicJWK());
                }
            }
            if (usable.isEmpty()) {
                throw new AuthException(file + " holds no RSA key with a kid");
            }
            return new JWKSet(usable);
        } catch (IOException | ParseException e) {
            throw new AuthException("cannot read the jwks " + file + ": " + e.getMessage(), e);
        }
    }
}
