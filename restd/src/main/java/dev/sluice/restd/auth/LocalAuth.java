package dev.sluice.restd.auth;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.AuthException;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * rest_auth/local: the request came over this daemon's Unix socket, and the kernel
 * ({@code SO_PEERCRED}) says it came from the user the daemon runs as, or from root; no token is
 * needed. As slurmrestd 22.05 does, any other user is refused and root is let in, and every
 * request, root's included, goes to the controller as the daemon's own user: that is the only
 * identity the daemon has.
 */
public final class LocalAuth implements RestAuth {
    private final String self;
    private final long selfUid;
    private final Function<String, OptionalLong> uidOf;

    /**
     * @param self the name of the user this daemon runs as
     * @param selfUid its uid
     * @param uidOf the uid of a user name (the user database), empty when it has none
     */
    public LocalAuth(String self, long selfUid, Function<String, OptionalLong> uidOf) {
        this.self = requireNonNull(self, "self is null");
        this.selfUid = selfUid;
        this.uidOf = requireNonNull(uidOf, "uidOf is null");
    }

    @Override
    public Identity authenticate(Presented request, Instant now) throws AuthException {
        if (request.peer().isEmpty()) {
            throw new AuthException("rest_auth/local does not apply to a request that came over TCP");
        }
        // The JDK names the peer by its passwd name; the uid decides, as slurmrestd compares uids.
        String peer = request.peer().get().user().getName();
        OptionalLong uid = uidOf.apply(peer);
        if (uid.isEmpty() || (uid.getAsLong() != selfUid && uid.getAsLong() != 0)) {
            throw new AuthException("rejecting socket connection of user " + peer + ": not " + self + " nor root");
        }
        return new Identity(self, "");
    }

    @Override
    public String plugin() {
        return "rest_auth/local";
    }

    /** slurmrestd 22.05 answers a refused request with this text alone (text/plain), not JSON. */
    public static final String REFUSAL = "Authentication failure";
}
