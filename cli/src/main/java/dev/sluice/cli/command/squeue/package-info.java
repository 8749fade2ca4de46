/**
 * {@code squeue}: options and {@code SQUEUE_*} variables, job filters, Slurm's default and
 * {@code -S} orderings, and the {@code -o} field letters. The letters, their headers and which
 * of them Slurm cuts to the column width were settled against Slurm 22.05's squeue.
 */
package dev.sluice.cli.command.squeue;
