package dev.sluice.common.auth;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Decides who sent a command-socket request that arrived over the network, from what rides
 * with it and nothing else: a cluster credential bound to the request's bytes (only holders of
 * the cluster key can make one, and each is good for one request), or a {@code SLURM_JWT}
 * user token (the JWT key's holder vouched for that user name; the number comes from this
 * host's user database). Whatever the request says about its sender is never consulted.
 */
public final class RequestAuthenticator {
    private volatile ClusterCredentials credentials;
    private final Optional<UserTokens> tokens;
    private final UserDb users;
    private final String audience;
    private final ReplayGuard replays = new ReplayGuard();

    /**
     * @param tokens the {@code auth/jwt} verifier; empty when the site did not configure one
     * @param audience who this daemon is: {@code slurmctld} or {@code slurmdbd}
     */
    public RequestAuthenticator(ClusterKeys keys, Optional<UserTokens> tokens, UserDb users, String audience) {
        this.credentials = new ClusterCredentials(requireNonNull(keys, "keys is null"));
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.users = requireNonNull(users, "users is null");
        this.audience = requireNonNull(audience, "audience is null");
    }

    /** A rotated key set ({@code scontrol reconfigure}): later requests are checked against it. */
    public void reload(ClusterKeys keys) {
        this.credentials = new ClusterCredentials(requireNonNull(keys, "keys is null"));
    }

    /**
     * @param request the exact bytes the credential must be bound to
     * @param peerHost where the connection came from, recorded for token users
     * @throws AuthException with the reason, for the daemon's log; the caller answers only
     *     Slurm's "Protocol authentication error"
     */
    public Principal authenticate(byte[] request, String credential, String userToken, String peerHost, Instant now)
            throws AuthException {
        if (credential != null && !credential.isEmpty()) {
            ClusterCredentials.Verified v = credentials.verify(credential, audience, request, now);
            if (!replays.firstUse(v.nonce(), v.expires(), now)) {
                throw new AuthException("credential " + v.nonce() + " was already used (replay)");
            }
            return v.principal();
        }
        if (userToken != null && !userToken.isEmpty()) {
            UserTokens verifier = tokens.orElseThrow(
                    () -> new AuthException("a SLURM_JWT token was sent but auth/jwt is not configured"));
            String name = verifier.verify(userToken, now);
            UserDb.Account account = users.byName(name)
                    .orElseThrow(() -> new AuthException("token names user " + name + ", unknown on this host"));
            return new Principal(account.uid(), account.gid(), account.name(), List.of(), peerHost);
        }
        throw new AuthException("request carries no credential");
    }
}
