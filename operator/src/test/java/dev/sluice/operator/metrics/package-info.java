/** Tests of the autoscaling metrics. */
package dev.sluice.operator.metrics;
