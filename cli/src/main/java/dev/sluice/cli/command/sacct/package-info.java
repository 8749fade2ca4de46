/**
 * {@code sacct}: job accounting from sluice-dbd, printed with Slurm's field widths, {@code +}
 * truncation and parsable modes. The printing is pure; only {@link
 * dev.sluice.cli.command.sacct.AccountingClient} touches a socket.
 */
package dev.sluice.cli.command.sacct;
