/**
 * {@code scancel}: job ids and filters to a {@code SignalJobRequest}, and Slurm 22.05's
 * messages and exit statuses for what comes back (which errors stay silent unless
 * {@code -v}, and the errno-derived exit status).
 */
package dev.sluice.cli.command.scancel;
