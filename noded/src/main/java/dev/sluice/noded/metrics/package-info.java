/** The node daemon's Prometheus {@code /metrics}: its running jobs, their GPUs, and running steps. */
package dev.sluice.noded.metrics;
