package dev.sluice.ctld.limits;

import static java.util.Objects.requireNonNull;

/** A QOS as the controller uses it: its priority (the QOS factor) and its limits. */
public record Qos(String name, long priority, Limits limits) {
    public Qos {
        requireNonNull(name, "name is null");
        requireNonNull(limits, "limits is null");
        if (priority < 0) {
            throw new IllegalArgumentException("negative QOS priority " + priority);
        }
    }
}
