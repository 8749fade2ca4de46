/**
 * A getopt_long-compatible argument parser: what glibc's {@code getopt_long} accepts and what
 * it prints on bad input, because Slurm's commands are built on it and users' scripts depend on
 * its spellings ({@code -N2}, {@code -N 2}, {@code --nodes=2}, {@code --nodes 2}, unique
 * prefixes such as {@code --part=gpu}, bundled flags, {@code --}). Pure: no I/O; errors are
 * returned as the exact text glibc would print. Knows nothing about any particular command.
 */
package dev.sluice.cli.getopt;
