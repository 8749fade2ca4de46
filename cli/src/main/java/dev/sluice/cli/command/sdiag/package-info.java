/** {@code sdiag}: the controller's statistics, as Slurm 22.05 prints them. */
package dev.sluice.cli.command.sdiag;
