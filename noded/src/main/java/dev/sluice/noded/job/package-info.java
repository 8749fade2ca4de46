/**
 * The node's typed view of a job it runs: {@link dev.sluice.noded.job.BatchJob}, what the
 * controller's launch says about a batch job on this node, parsed once where it enters the daemon
 * (the {@code wire} package) into values the launcher uses as they are. Pure data: no protobuf,
 * no I/O.
 */
package dev.sluice.noded.job;
