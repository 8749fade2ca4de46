/** {@code sshare}: the fair-share tree, as Slurm 22.05 prints it. */
package dev.sluice.cli.command.sshare;
