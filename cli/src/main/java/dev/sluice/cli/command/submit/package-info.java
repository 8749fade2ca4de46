/**
 * What sbatch, srun and salloc share, as Slurm's three commands share their option code: the
 * catalogue of every option (names, letters, arguments, aliases), the merged option values, the
 * translation of those values into a {@code JobSpec} with Slurm's messages for values it
 * rejects, and the checks and warnings for options whose effect this cluster lacks.
 */
package dev.sluice.cli.command.submit;
