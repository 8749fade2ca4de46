/**
 * Slurm hostlist expressions ({@code tux[0-7,9]}, {@code rack[1-2]-n[01-04]}): expansion to host
 * names and compression back to Slurm's ranged form, both the order-preserving form of {@code
 * scontrol show hostlist} and the sorted form Slurm uses for node lists such as {@code
 * SLURM_JOB_NODELIST}. Pure string functions; no name resolution, no I/O.
 */
package dev.sluice.common.hostlist;
