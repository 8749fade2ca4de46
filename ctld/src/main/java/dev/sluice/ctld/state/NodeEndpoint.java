package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/** Where a node's daemon listens: its host name, the address it is reached at, and the port. */
public record NodeEndpoint(String hostname, String addr, int port) {
    public NodeEndpoint {
        requireNonNull(hostname, "hostname is null");
        requireNonNull(addr, "addr is null");
    }
}
