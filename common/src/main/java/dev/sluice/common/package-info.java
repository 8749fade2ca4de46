/**
 * Slurm-compatible vocabulary shared by every Sluice component: hostlists, time limits, memory
 * sizes, TRES and GRES strings, job and node states, error codes and the {@code slurm.conf} /
 * {@code gres.conf} readers. Nothing here knows about gRPC, threads or the wall clock.
 */
package dev.sluice.common;
