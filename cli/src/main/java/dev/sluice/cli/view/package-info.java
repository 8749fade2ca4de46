/**
 * What Slurm's commands derive from the controller's records before printing them: job and
 * node state names (with Slurm's suffix characters), elapsed and remaining time against an
 * injected "now", user and group names, node lists in ranged form. Shared by squeue, sinfo and
 * scontrol so they cannot disagree. Pure: no clock, no I/O.
 */
package dev.sluice.cli.view;
