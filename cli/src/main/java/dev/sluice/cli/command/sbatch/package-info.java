/**
 * {@code sbatch}: the option table (all of Slurm 22.05's names, so prefixes are exactly as
 * ambiguous as in Slurm; those Sluice does not implement are rejected as unrecognized), the
 * {@code #SBATCH} directive scanner, {@code SBATCH_*} variables, and the translation of the
 * merged options into a {@code JobSpec}. Precedence, as in Slurm: command line, then
 * environment, then {@code #SBATCH} lines.
 */
package dev.sluice.cli.command.sbatch;
