package dev.sluice.noded.launch;

import static java.util.Objects.requireNonNull;

import dev.sluice.noded.spool.JobSpool;
import java.time.InstantSource;
import java.util.function.Supplier;

/**
 * What both launchers are built with, fixed for the daemon's life: the node, the spool, whom the
 * daemon runs as, the clock, the cgroups, and where the current {@link LaunchPolicy} is read
 * (the one thing reconfigure changes, read at each launch). Given whole at construction, so a
 * launcher never runs a job with half its wiring.
 *
 * @param daemonUid the daemon's uid: root runs jobs as their users, anyone else only their own
 * @param clock time limits, the suspend clock and the end notices count in it (the controller's
 *     epoch seconds); injected so that tests can move time
 */
public record LaunchSetup(
        String nodeName,
        JobSpool spool,
        int daemonUid,
        InstantSource clock,
        Supplier<LaunchPolicy> policy,
        JobConfinement confinement) {
    public LaunchSetup {
        requireNonNull(nodeName, "nodeName is null");
        requireNonNull(spool, "spool is null");
        requireNonNull(clock, "clock is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(confinement, "confinement is null");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Node, spool, uid and clock must be named; the policy defaults to none, as do cgroups. */
    public static final class Builder {
        private String nodeName;
        private JobSpool spool;
        private Integer daemonUid;
        private InstantSource clock;
        private Supplier<LaunchPolicy> policy = () -> LaunchPolicy.NONE;
        private JobConfinement confinement = JobConfinement.none();

        private Builder() {}

        public Builder nodeName(String nodeName) {
            this.nodeName = nodeName;
            return this;
        }

        public Builder spool(JobSpool spool) {
            this.spool = spool;
            return this;
        }

        public Builder daemonUid(int daemonUid) {
            this.daemonUid = daemonUid;
            return this;
        }

        public Builder clock(InstantSource clock) {
            this.clock = clock;
            return this;
        }

        /** Read at every launch: reconfigure changes what it answers. */
        public Builder policy(Supplier<LaunchPolicy> policy) {
            this.policy = policy;
            return this;
        }

        /** One policy for the daemon's life. */
        public Builder policy(LaunchPolicy policy) {
            requireNonNull(policy, "policy is null");
            this.policy = () -> policy;
            return this;
        }

        public Builder confinement(JobConfinement confinement) {
            this.confinement = confinement;
            return this;
        }

        /** @throws IllegalStateException naming the first setting left out */
        public LaunchSetup build() {
            require(nodeName, "nodeName");
            require(spool, "spool");
            require(daemonUid, "daemonUid");
            require(clock, "clock");
            return new LaunchSetup(nodeName, spool, daemonUid, clock, policy, confinement);
        }

        private static void require(Object value, String name) {
            if (value == null) {
                throw new IllegalStateException("You must specify " + name + " for the launchers");
            }
        }
    }
}
