/**
 * The operator's Prometheus metrics for autoscaling: per cluster and partition, pending jobs and
 * the CPUs and GPUs they ask for, and idle nodes ({@link
 * dev.sluice.operator.metrics.AutoscalingMetrics}). Names are stable: HPA rules depend on them.
 */
package dev.sluice.operator.metrics;
