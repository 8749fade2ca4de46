package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * What a node's daemon says of itself when it registers.
 *
 * @param bootTime when the machine booted, epoch seconds
 * @param version the daemon's version
 * @param facts what it says of its machine (Arch, OS, when it started); {@link NodeFacts#NONE}
 *     when it reported nothing
 */
public record DaemonReport(long bootTime, String version, NodeFacts facts) {
    public DaemonReport {
        requireNonNull(version, "version is null");
        requireNonNull(facts, "facts is null");
    }
}
