package dev.sluice.cli;

import static java.util.Objects.requireNonNull;

/**
 * The user running a command, as the OS reports it. A fresh JVM learns it from
 * {@code UnixSystem}; a warm agent would learn it from the socket peer's credentials.
 */
public record Caller(long uid, long gid, String userName, String host) {
    public Caller {
        requireNonNull(userName, "userName is null");
        requireNonNull(host, "host is null");
    }
}
