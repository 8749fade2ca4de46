/**
 * Running jobs on the node: the batch script as the submitting user, its environment and
 * output files, signals and time limits. Environment and filename rules are pure functions.
 * Batch jobs arrive as {@link dev.sluice.noded.job.BatchJob}, mapped at the edge; only the step
 * launcher still reads its protobuf request (see the noded TestArchitecture).
 */
package dev.sluice.noded.launch;
