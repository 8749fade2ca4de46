/**
 * Generic resources (GPUs, MPS, shards, count-only resources): per-node inventories built from
 * {@code slurm.conf}/{@code gres.conf}, job demands, and the pure matcher that picks device
 * indices. No I/O, threads, clock or protocol classes.
 */
package dev.sluice.ctld.gres;
