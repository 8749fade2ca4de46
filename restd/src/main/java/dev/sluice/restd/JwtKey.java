package dev.sluice.restd;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.conf.SlurmConf;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code auth/jwt} key as the controller finds it ({@code AuthAltTypes=auth/jwt},
 * {@code AuthAltParameters=jwt_key=FILE}, default {@code jwt_hs256.key} in StateSaveLocation),
 * so that the tokens this daemon accepts are exactly those the controller accepts.
 */
final class JwtKey {
    private JwtKey() {}

    /** Empty when the site has no auth/jwt: every request is then refused. */
    static Optional<UserTokens> fromConf(SlurmConf conf) throws AuthException {
        if (conf.authAltTypes().stream().noneMatch(t -> t.equalsIgnoreCase("auth/jwt"))) {
            return Optional.empty();
        }
        Path key = Path.of(conf.stateSaveLocation()).resolve("jwt_hs256.key");
        for (String p : conf.authAltParameters()) {
            String[] kv = p.split("=", 2);
            if (kv.length == 2 && kv[0].strip().equalsIgnoreCase("jwt_key")) {
                key = Path.of(kv[1].strip());
            }
        }
        return Optional.of(new UserTokens(ClusterKeys.load(key).signingKey().secret()));
    }
}
