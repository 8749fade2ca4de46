package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * Where a node's daemon is reached: slurm.conf's {@code NodeHostname=}, {@code NodeAddr=} and
 * {@code Port=}, or what a registering daemon reported.
 */
public record NodeAddress(String hostname, String addr, int port) {
    public NodeAddress {
        requireNonNull(hostname, "hostname is null");
        requireNonNull(addr, "addr is null");
    }
}
