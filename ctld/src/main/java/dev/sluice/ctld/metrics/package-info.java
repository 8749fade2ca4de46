/**
 * The controller's Prometheus/OpenMetrics endpoint: gauges read from the published
 * {@code ClusterImage} at scrape time (never from the loop's state), histograms fed by the
 * loop's and the RPC servers' timing hooks, and the HTTP server that serves {@code /metrics}.
 */
package dev.sluice.ctld.metrics;
