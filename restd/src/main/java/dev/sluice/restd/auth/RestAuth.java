package dev.sluice.restd.auth;

import dev.sluice.common.auth.AuthException;
import java.time.Instant;
import java.util.Optional;
import jdk.net.UnixDomainPrincipal;

/**
 * One of slurmrestd's authentication plugins ({@code -a rest_auth/jwt}, {@code rest_auth/local}):
 * decides whom a request speaks for, from its headers or from the kernel's word on who is at the
 * other end of its Unix socket.
 */
public interface RestAuth {
    /** What a request brings to be authenticated with; {@code peer} only over a Unix socket. */
    record Presented(String userHeader, String tokenHeader, Optional<UnixDomainPrincipal> peer) {}

    /**
     * Whom an authenticated request speaks for, and the token it presented ({@code ""} when the
     * daemon speaks to the controller as itself, in local mode).
     */
    record Identity(String user, String token) {}

    /** @throws AuthException why the request is refused (logged; the client gets a 401) */
    Identity authenticate(Presented request, Instant now) throws AuthException;

    /** The plugin's name as slurmrestd's error bodies give it: {@code rest_auth/jwt}. */
    String plugin();
}
