/**
 * Slurm's shared vocabulary, defined once for every module: the NO_VAL and INFINITE sentinels
 * ({@link dev.sluice.common.slurm.SlurmLimits}), job states with their compact codes, node
 * base states and flags, partition states and pending reasons, each spelled as Slurm prints it,
 * and one reading of an option's word into them ({@link dev.sluice.common.slurm.SlurmWords}).
 * Pure values; no I/O.
 */
package dev.sluice.common.slurm;
