/** {@code sprio}: the priority factors of pending jobs, as Slurm 22.05's priority/multifactor shows them. */
package dev.sluice.cli.command.sprio;
