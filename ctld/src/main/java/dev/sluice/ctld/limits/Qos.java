package dev.sluice.ctld.limits;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A QOS as the controller uses it: its priority (the QOS factor), its limits, and what
 * {@code PreemptType=preempt/qos} reads: the QOS its jobs may preempt ({@code Preempt=}), what
 * happens to its own jobs when preempted ({@code PreemptMode}, empty or {@code cluster}: the
 * cluster's) and how long they get to end first ({@code GraceTime}).
 */
public record Qos(
        String name, long priority, Limits limits, List<String> preempt, String preemptMode, long graceSeconds) {
    public Qos {
        requireNonNull(name, "name is null");
        requireNonNull(limits, "limits is null");
        preempt = List.copyOf(preempt);
        requireNonNull(preemptMode, "preemptMode is null");
        if (priority < 0) {
            throw new IllegalArgumentException("negative QOS priority " + priority);
        }
    }

    /** A QOS that preempts nothing and takes the cluster's PreemptMode. */
    public Qos(String name, long priority, Limits limits) {
        this(name, priority, limits, List.of(), "", 0);
    }
}
