package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * What a node daemon reports of its machine when it registers, kept in the node's record for
 * {@code scontrol show node} ({@code Arch=}, {@code OS=}, {@code SlurmdStartTime=}); the
 * controller never makes them up.
 *
 * @param arch uname's machine ({@code x86_64}); empty until a daemon said
 * @param os uname's system, release and version ({@code Linux 6.1.0 #1 SMP ...})
 * @param slurmdStartTime when the daemon started, epoch seconds; 0 until a daemon said
 */
public record NodeFacts(String arch, String os, long slurmdStartTime) {
    public static final NodeFacts NONE = new NodeFacts("", "", 0);

    public NodeFacts {
        requireNonNull(arch, "arch is null");
        requireNonNull(os, "os is null");
    }
}
