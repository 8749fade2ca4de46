package dev.sluice.ctld.rpc;

import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.Caller;
import dev.sluice.protocol.v1.GenerateTokenRequest;
import dev.sluice.protocol.v1.GenerateTokenResponse;

/** {@code scontrol token}: who may have a token for whom, and for how long. */
final class TokenGrant {
    private TokenGrant() {}

    /**
     * {@code scontrol token}: a SLURM_JWT for the caller, or for another user when an operator
     * asks, as Slurm's auth/jwt mints them.
     */
    static GenerateTokenResponse mint(CtldConfig config, Caller caller, GenerateTokenRequest request) {
        UserTokens tokens = config.security()
                .userTokens()
                .filter(UserTokens::canMint)
                .orElseThrow(() -> new SlurmException(ErrorCode.AUTH_UNABLE_TO_GENERATE_TOKEN));
        String user = request.getUserName().isEmpty() ? caller.userName() : request.getUserName();
        if (!user.equals(caller.userName()) && !caller.isOperator()) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        if (user.isEmpty()) {
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        long lifespan = request.getLifespanSeconds() == 0
                ? UserTokens.DEFAULT_LIFESPAN.toSeconds()
                : request.getLifespanSeconds();
        if (lifespan < 0) {
            throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "lifespan must be positive");
        }
        // Tokens are checked against real time (not a simulation's clock), so they are minted in it.
        String token = tokens.mint(user, java.time.Instant.now(), java.time.Duration.ofSeconds(lifespan));
        return GenerateTokenResponse.newBuilder().setToken(token).build();
    }
}
