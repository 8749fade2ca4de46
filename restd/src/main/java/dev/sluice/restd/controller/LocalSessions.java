package dev.sluice.restd.controller;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.Caller;
import dev.sluice.cli.client.ClientAuth;
import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.cli.client.ConnectionPool;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.sacct.AccountingClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * rest_auth/local's sessions: the daemon runs as the one user it serves and speaks to the
 * controller as that user's commands do (the controller's local socket, where the kernel names
 * the daemon's uid; the cluster key where this user can read it), so the commands' authorization
 * applies unchanged. No token is involved: {@code SLURM_JWT} is not passed on, as it could name
 * someone else.
 */
public final class LocalSessions implements Sessions {
    private final Caller self;
    private final ClientAuth auth;
    private final ClusterAccess access;
    /** Kept open across requests; a client per request, as a client numbers its own requests. */
    private final ConnectionPool pool = new ConnectionPool(16, Duration.ofMinutes(1), Clock.systemUTC());

    public LocalSessions(ClusterAccess access, Caller self) {
        this.access = requireNonNull(access, "access is null");
        this.self = requireNonNull(self, "self is null");
        this.auth = ClientAuth.forCaller(access, Map.of(), self, Clock.systemUTC(), false);
    }

    @Override
    public ControllerSession forUser(String userName, String token) {
        requireSelf(userName);
        return new ControllerClient(ControllerLocator.addresses(access.conf()), self, auth, pool)::call;
    }

    @Override
    public Optional<AccountingSession> accountingForUser(String userName, String token) {
        requireSelf(userName);
        return AccountingClient.of(access.conf(), self, auth).map(c -> c::call);
    }

    /** LocalAuth lets only this user through; anything else is a wiring mistake, not a request. */
    private void requireSelf(String userName) {
        if (!userName.equals(self.userName())) {
            throw new IllegalStateException("local sessions serve " + self.userName() + " only, not " + userName);
        }
    }
}
