/**
 * {@code scontrol show config}'s report of a configuration, as Slurm 22.05 prints it: {@link
 * dev.sluice.common.conf.show.ShowConfig} renders a parsed slurm.conf (and cgroup.conf) through
 * the one table of Slurm's settings, {@code show-config.txt} (order, spelling, defaults, units,
 * word lists), which was written from real Slurm's output. The controller sends the report; the
 * command prints it.
 */
package dev.sluice.common.conf.show;
