package dev.sluice.common.auth;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides who sent a command-socket request that arrived over the network, from what rides
 * with it and nothing else: a cluster credential bound to the request's bytes (only holders of
 * the cluster key can make one, and each is good for one request), or a {@code SLURM_JWT}
 * user token (the JWT key's holder vouched for that user name; the number comes from this
 * host's user database). Whatever the request says about its sender is never consulted, but
 * for one thing Slurm's auth/jwt allows too: a token of root's or SlurmUser's may name another
 * user to speak for (slurmrestd's {@code X-SLURM-USER-NAME}); anyone else's token only its own.
 */
public final class RequestAuthenticator {
    private volatile ClusterCredentials credentials;
    private final Optional<UserTokens> tokens;
    private final UserDb users;
    private final String audience;
    private final Set<String> proxies;
    private final ReplayGuard replays = new ReplayGuard();

    /**
     * @param tokens the {@code auth/jwt} verifier; empty when the site did not configure one
     * @param audience who this daemon is: {@code slurmctld} or {@code slurmdbd}
     */
    public RequestAuthenticator(ClusterKeys keys, Optional<UserTokens> tokens, UserDb users, String audience) {
        this(keys, tokens, users, audience, "root");
    }

    /**
     * @param slurmUser the daemons' SlurmUser, whose tokens (as root's) may speak for others
     */
    public RequestAuthenticator(
            ClusterKeys keys, Optional<UserTokens> tokens, UserDb users, String audience, String slurmUser) {
        this.credentials = new ClusterCredentials(requireNonNull(keys, "keys is null"));
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.users = requireNonNull(users, "users is null");
        this.audience = requireNonNull(audience, "audience is null");
        // Set.copyOf, not Set.of: SlurmUser is often root itself.
        this.proxies = Set.copyOf(List.of("root", requireNonNull(slurmUser, "slurmUser is null")));
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
        return authenticate(request, credential, userToken, "", peerHost, now);
    }

    /**
     * @param tokenUser the user a token is to speak for ({@code ""}: its own); only root's and
     *     SlurmUser's tokens may name another
     */
    public Principal authenticate(
            byte[] request, String credential, String userToken, String tokenUser, String peerHost, Instant now)
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
            if (tokenUser != null && !tokenUser.isEmpty() && !tokenUser.equals(name)) {
                if (!proxies.contains(name)) {
                    throw new AuthException("token of " + name + " may not speak for " + tokenUser);
                }
                name = tokenUser;
            }
            String user = name;
            UserDb.Account account = users.byName(name)
                    .orElseThrow(() -> new AuthException("token names user " + user + ", unknown on this host"));
            return new Principal(account.uid(), account.gid(), account.name(), List.of(), peerHost);
        }
        throw new AuthException("request carries no credential");
    }
}
