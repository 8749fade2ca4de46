/**
 * Running jobs on the node: the batch script as the submitting user, its environment and
 * output files, signals and time limits. Environment and filename rules are pure functions.
 * Launches arrive as {@link dev.sluice.noded.job.BatchJob} and {@link
 * dev.sluice.noded.job.StepLaunch}, mapped at the edge; protobuf is left only in the frames of
 * srun's I/O socket (see the noded TestArchitecture).
 */
package dev.sluice.noded.launch;
