/** {@code sstat}: CPU, memory and I/O of running job steps, as Slurm 22.05 prints them. */
package dev.sluice.cli.command.sstat;
