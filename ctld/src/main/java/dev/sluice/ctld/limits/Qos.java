package dev.sluice.ctld.limits;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Consumer;

/**
 * A QOS as the controller uses it: its priority (the QOS factor), its {@link Limits}, its {@link
 * HolderCaps} (what the running jobs of one account or one user may hold under it) and its
 * {@link Preemption} (what {@code PreemptType=preempt/qos} reads), its MaxTRESPerNode
 * ({@code perNode}: what a job may ask on each of its nodes) and the UsageThreshold it enforces
 * ({@code usageThreshold}, {@link #THRESHOLD_UNSET} when it has none or lacks the flag
 * EnforceUsageThreshold, without which Slurm ignores it), and whether it has the flag DenyOnLimit
 * ({@code denyOnLimit}: a job over a Max limit is refused at submission instead of pending). Built with {@link #builder(String)}: a
 * QOS of sacctmgr's defaults needs only its name.
 */
public record Qos(
        String name,
        long priority,
        Limits limits,
        HolderCaps caps,
        Preemption preemption,
        TresLimits perNode,
        double usageThreshold,
        boolean denyOnLimit) {

    /** {@code preemptExemptSeconds} when the QOS has none: the cluster's PreemptExemptTime applies. */
    public static final long EXEMPT_UNSET = -1;

    /** {@code usageThreshold} when the QOS enforces none. */
    public static final double THRESHOLD_UNSET = -1;

    public Qos {
        requireNonNull(name, "name is null");
        requireNonNull(limits, "limits is null");
        requireNonNull(caps, "caps is null");
        requireNonNull(preemption, "preemption is null");
        requireNonNull(perNode, "perNode is null");
        if (priority < 0) {
            throw new IllegalArgumentException("negative QOS priority " + priority);
        }
    }

    /**
     * What the QOS says about preemption: the QOS its jobs may preempt ({@code Preempt=}), what
     * happens to its own jobs when preempted ({@code PreemptMode}, empty or {@code cluster}: the
     * cluster's), how long they get to end first ({@code GraceTime}) and how long they run before
     * they may be preempted at all ({@code PreemptExemptTime}, over the cluster's; {@link
     * #EXEMPT_UNSET} for none).
     */
    public record Preemption(List<String> preempts, String mode, long graceSeconds, long exemptSeconds) {
        /** Preempts nothing, takes the cluster's PreemptMode and PreemptExemptTime, no grace. */
        public static final Preemption NONE = new Preemption(List.of(), "", 0, EXEMPT_UNSET);

        public Preemption {
            preempts = List.copyOf(preempts);
            requireNonNull(mode, "mode is null");
        }
    }

    /**
     * Caps on what the running jobs under this QOS hold together: {@code perAccount}
     * (MaxTRESPerAccount) for each account on its own, {@code perUser} (MaxTRESPerUser) for each
     * user, whatever accounts its jobs run in.
     */
    public record HolderCaps(TresLimits perAccount, TresLimits perUser) {
        public static final HolderCaps NONE = new HolderCaps(TresLimits.NONE, TresLimits.NONE);

        public HolderCaps {
            requireNonNull(perAccount, "perAccount is null");
            requireNonNull(perUser, "perUser is null");
        }
    }

    /** A QOS of sacctmgr's defaults (priority 0, no limits, preempts nothing) to change from there. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** This QOS with what {@code changes} sets on a builder started from it. */
    public Qos with(Consumer<Builder> changes) {
        Builder b = new Builder(name)
                .priority(priority)
                .limits(limits)
                .caps(caps)
                .preemption(preemption)
                .maxTresPerNode(perNode)
                .usageThreshold(usageThreshold)
                .denyOnLimit(denyOnLimit);
        changes.accept(b);
        return b.build();
    }

    /** Collects a QOS part by part; what is not set keeps sacctmgr's default. */
    public static final class Builder {
        private final String name;
        private long priority;
        private Limits limits = Limits.UNSET;
        private TresLimits maxTresPerAccount = TresLimits.NONE;
        private TresLimits maxTresPerUser = TresLimits.NONE;
        private List<String> preempts = List.of();
        private String preemptMode = "";
        private long graceSeconds;
        private long preemptExemptSeconds = EXEMPT_UNSET;
        private TresLimits maxTresPerNode = TresLimits.NONE;
        private double usageThreshold = THRESHOLD_UNSET;
        private boolean denyOnLimit;

        private Builder(String name) {
            this.name = requireNonNull(name, "name is null");
        }

        public Builder priority(long value) {
            this.priority = value;
            return this;
        }

        public Builder limits(Limits value) {
            this.limits = value;
            return this;
        }

        public Builder caps(HolderCaps value) {
            this.maxTresPerAccount = value.perAccount();
            this.maxTresPerUser = value.perUser();
            return this;
        }

        public Builder maxTresPerAccount(TresLimits value) {
            this.maxTresPerAccount = value;
            return this;
        }

        public Builder maxTresPerUser(TresLimits value) {
            this.maxTresPerUser = value;
            return this;
        }

        public Builder maxTresPerNode(TresLimits value) {
            this.maxTresPerNode = value;
            return this;
        }

        /** The UsageThreshold enforced ({@link #THRESHOLD_UNSET}: none). */
        public Builder usageThreshold(double value) {
            this.usageThreshold = value;
            return this;
        }

        /** Flags=DenyOnLimit: refuse at submission what would pend on a Max limit. */
        public Builder denyOnLimit(boolean value) {
            this.denyOnLimit = value;
            return this;
        }

        public Builder preemption(Preemption value) {
            this.preempts = value.preempts();
            this.preemptMode = value.mode();
            this.graceSeconds = value.graceSeconds();
            this.preemptExemptSeconds = value.exemptSeconds();
            return this;
        }

        /** The QOS whose jobs this one's may preempt ({@code Preempt=}). */
        public Builder preempts(List<String> value) {
            this.preempts = value;
            return this;
        }

        public Builder preemptMode(String value) {
            this.preemptMode = value;
            return this;
        }

        public Builder graceSeconds(long value) {
            this.graceSeconds = value;
            return this;
        }

        public Builder preemptExemptSeconds(long value) {
            this.preemptExemptSeconds = value;
            return this;
        }

        public Qos build() {
            return new Qos(
                    name,
                    priority,
                    limits,
                    new HolderCaps(maxTresPerAccount, maxTresPerUser),
                    new Preemption(preempts, preemptMode, graceSeconds, preemptExemptSeconds),
                    maxTresPerNode,
                    usageThreshold,
                    denyOnLimit);
        }
    }
}
