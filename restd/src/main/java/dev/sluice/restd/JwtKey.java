package dev.sluice.restd;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.JwtConfig;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.conf.SlurmConf;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code auth/jwt} keys as the controller finds them ({@link JwtConfig}: {@code jwt_key=},
 * default {@code jwt_hs256.key} in StateSaveLocation, and {@code jwks=}), so that the tokens this
 * daemon accepts are exactly those the controller accepts.
 */
final class JwtKey {
    private JwtKey() {}

    /** Empty when the site has no auth/jwt: every request is then refused. */
    static Optional<UserTokens> fromConf(SlurmConf conf) throws AuthException {
        return JwtConfig.load(
                conf.authAltTypes(), conf.authAltParameters(), Optional.of(Path.of(conf.stateSaveLocation())));
    }
}
