/**
 * {@code salloc} and the allocation a lone {@code srun} makes: a job without a batch script,
 * awaited, described by Slurm's variables, released with its command's status.
 */
package dev.sluice.cli.command.salloc;
