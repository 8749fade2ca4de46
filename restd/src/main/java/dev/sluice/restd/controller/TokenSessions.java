package dev.sluice.restd.controller;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.Caller;
import dev.sluice.cli.client.ClientAuth;
import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.cli.client.ConnectionPool;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.common.auth.UserDb;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Sessions that present the REST user's own {@code SLURM_JWT} to the controller, as a command
 * run with that token would: the controller verifies it again and acts as the user it names,
 * so the REST daemon needs no key that lets it speak for anyone else and the commands'
 * authorization applies unchanged. The cluster key and the local socket are deliberately
 * left out: either would make the controller see the daemon's own identity instead.
 */
public final class TokenSessions implements Sessions {
    private final ClusterAccess access;
    private final UserDb users;
    private final String host;
    /**
     * Connections to the controller kept open across requests and users: each request carries
     * its own user's token, so a connection belongs to no one, and a dashboard's polls cost a
     * request each, not a TCP handshake and a controller thread.
     */
    private final ConnectionPool pool = new ConnectionPool(64, Duration.ofMinutes(1), Clock.systemUTC());

    public TokenSessions(ClusterAccess access, UserDb users, String host) {
        requireNonNull(access, "access is null");
        this.access = new ClusterAccess(
                access.slurmConfPath(),
                access.conf(),
                access.commandSocket(),
                Optional.empty(),
                access.files(),
                access.readFiles());
        this.users = requireNonNull(users, "users is null");
        this.host = requireNonNull(host, "host is null");
    }

    @Override
    public ControllerSession forUser(String userName, String token) {
        Caller caller = caller(userName);
        ControllerClient client =
                new ControllerClient(ControllerLocator.addresses(access.conf()), caller, auth(caller, token), pool);
        return client::call;
    }

    /** The same token goes to sluice-dbd, which verifies it with the same key, as sacct's would. */
    @Override
    public Optional<AccountingSession> accountingForUser(String userName, String token) {
        Caller caller = caller(userName);
        return AccountingClient.of(access.conf(), caller, auth(caller, token)).map(c -> c::call);
    }

    /** The identity written in a request is informational; the daemons trust the token. */
    private Caller caller(String userName) {
        return users.byName(userName)
                .map(a -> new Caller(a.uid(), a.gid(), a.name(), host))
                .orElse(new Caller(-1, -1, userName, host));
    }

    /**
     * The token speaks for the request's user: its own, or another one that a root's or
     * SlurmUser's token names (the daemons check that again).
     */
    private ClientAuth auth(Caller caller, String token) {
        return ClientAuth.forCaller(access, Map.of("SLURM_JWT", token), caller, Clock.systemUTC(), true)
                .speakingFor(caller.userName());
    }
}
