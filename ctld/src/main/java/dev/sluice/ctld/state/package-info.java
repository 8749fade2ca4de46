/**
 * Cluster state: jobs, nodes and partitions, the durable {@link dev.sluice.ctld.state.StateRecord}s
 * that change them, and the immutable {@link dev.sluice.ctld.state.ClusterImage} readers see.
 * Pure: no I/O, threads, clock or generated protocol classes.
 */
package dev.sluice.ctld.state;
