package dev.sluice.restd.auth;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.UserTokens;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * rest_auth/jwt: a request names its user in {@code X-SLURM-USER-NAME} and proves it with the
 * {@code X-SLURM-USER-TOKEN} that {@code scontrol token} minted, checked here with the
 * controller's own verifier and key so a token refused there is refused here first (and the
 * controller checks it again). The header may be left out; when given, it must name the
 * token's user, unless the token is root's or SlurmUser's: those speak for the user the header
 * names, as slurmrestd 22.05 lets them (compat 278; the controller and sluice-dbd check that
 * again, and refuse a user they do not know). A plain user's token speaks for nobody else.
 */
public final class TokenGate implements RestAuth {
    /** Far above any token {@code scontrol token} mints; larger ones are refused unparsed. */
    public static final int MAX_TOKEN_CHARS = 8 * 1024;

    private final Optional<UserTokens> tokens;
    private final Set<String> proxies;

    /** @param tokens the site's {@code auth/jwt} verifier; empty when none is configured */
    public TokenGate(Optional<UserTokens> tokens) {
        this(tokens, "root");
    }

    /** @param slurmUser slurm.conf's SlurmUser, whose tokens (as root's) may speak for others */
    public TokenGate(Optional<UserTokens> tokens, String slurmUser) {
        this.tokens = requireNonNull(tokens, "tokens is null");
        // Set.copyOf, not Set.of: SlurmUser is often root itself.
        this.proxies = Set.copyOf(List.of("root", requireNonNull(slurmUser, "slurmUser is null")));
    }

    @Override
    public Identity authenticate(Presented request, Instant now) throws AuthException {
        String user = authenticate(request.userHeader(), request.tokenHeader(), now);
        return new Identity(user, request.tokenHeader().strip());
    }

    @Override
    public String plugin() {
        return "rest_auth/jwt";
    }

    /** The user the request speaks for. */
    public String authenticate(String userHeader, String tokenHeader, Instant now) throws AuthException {
        if (tokenHeader == null || tokenHeader.isBlank()) {
            throw new AuthException("no X-SLURM-USER-TOKEN header");
        }
        if (tokenHeader.length() > MAX_TOKEN_CHARS) {
            throw new AuthException("token of " + tokenHeader.length() + " characters is over " + MAX_TOKEN_CHARS);
        }
        UserTokens verifier = tokens.orElseThrow(() -> new AuthException("auth/jwt is not configured"));
        String user = verifier.verify(tokenHeader.strip(), now);
        if (userHeader == null || userHeader.isBlank() || userHeader.strip().equals(user)) {
            return user;
        }
        if (!proxies.contains(user)) {
            throw new AuthException("X-SLURM-USER-NAME " + userHeader.strip() + " is not the token's user " + user);
        }
        return userHeader.strip();
    }
}
