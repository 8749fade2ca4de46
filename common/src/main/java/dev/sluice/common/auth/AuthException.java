package dev.sluice.common.auth;

/** A credential or key that cannot be trusted; the message says why, for the daemon's log. */
public final class AuthException extends Exception {
    public AuthException(String message) {
        super(message);
    }

    public AuthException(String message, Throwable cause) {
        super(message, cause);
    }
}
