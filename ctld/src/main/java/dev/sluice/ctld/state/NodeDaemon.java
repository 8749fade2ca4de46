package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * What a node's daemon told us when it last registered: when it booted (epoch seconds), its
 * version and its facts. {@link #NONE} until the first registration.
 */
public record NodeDaemon(boolean registered, long bootTime, String version, NodeFacts facts) {
    public static final NodeDaemon NONE = new NodeDaemon(false, 0, "", NodeFacts.NONE);

    public NodeDaemon {
        requireNonNull(version, "version is null");
        requireNonNull(facts, "facts is null");
    }
}
