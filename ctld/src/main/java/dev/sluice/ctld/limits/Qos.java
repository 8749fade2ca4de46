package dev.sluice.ctld.limits;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A QOS as the controller uses it: its priority (the QOS factor), its limits, and what
 * {@code PreemptType=preempt/qos} reads: the QOS its jobs may preempt ({@code Preempt=}), what
 * happens to its own jobs when preempted ({@code PreemptMode}, empty or {@code cluster}: the
 * cluster's), how long they get to end first ({@code GraceTime}) and how long they run before
 * they may be preempted at all ({@code PreemptExemptTime}, over the cluster's). {@code
 * maxTresPerAccount} (MaxTRESPerAccount) caps what the running jobs of any one account hold
 * under this QOS, each account on its own.
 */
public record Qos(
        String name,
        long priority,
        Limits limits,
        List<String> preempt,
        String preemptMode,
        long graceSeconds,
        long preemptExemptSeconds,
        TresLimits maxTresPerAccount) {

    /** {@code preemptExemptSeconds} when the QOS has none: the cluster's PreemptExemptTime applies. */
    public static final long EXEMPT_UNSET = -1;

    /** Without a per-account TRES limit. */
    public Qos(
            String name,
            long priority,
            Limits limits,
            List<String> preempt,
            String preemptMode,
            long graceSeconds,
            long preemptExemptSeconds) {
        this(name, priority, limits, preempt, preemptMode, graceSeconds, preemptExemptSeconds, TresLimits.NONE);
    }

    /** With the cluster's PreemptExemptTime. */
    public Qos(String name, long priority, Limits limits, List<String> preempt, String preemptMode, long graceSeconds) {
        this(name, priority, limits, preempt, preemptMode, graceSeconds, EXEMPT_UNSET);
    }

    public Qos {
        requireNonNull(name, "name is null");
        requireNonNull(limits, "limits is null");
        preempt = List.copyOf(preempt);
        requireNonNull(preemptMode, "preemptMode is null");
        requireNonNull(maxTresPerAccount, "maxTresPerAccount is null");
        if (priority < 0) {
            throw new IllegalArgumentException("negative QOS priority " + priority);
        }
    }

    /** A QOS that preempts nothing and takes the cluster's PreemptMode. */
    public Qos(String name, long priority, Limits limits) {
        this(name, priority, limits, List.of(), "", 0);
    }

    /** This QOS with {@code caps} as its MaxTRESPerAccount. */
    public Qos withMaxTresPerAccount(TresLimits caps) {
        return new Qos(name, priority, limits, preempt, preemptMode, graceSeconds, preemptExemptSeconds, caps);
    }
}
