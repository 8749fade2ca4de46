package dev.sluice.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;

/** A pod is ready when it runs and its Ready condition is true, as the kubelet reports. */
final class PodReadiness {
    private PodReadiness() {}

    static boolean ready(Pod p) {
        var s = p.getStatus();
        return s != null
                && "Running".equals(s.getPhase())
                && s.getConditions() != null
                && s.getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
