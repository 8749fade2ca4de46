package dev.sluice.operator.crd;

/** Whether the daemon serves Prometheus metrics (Slinky's {@code metrics.enabled}). */
public class Metrics {
    public boolean enabled;
}
