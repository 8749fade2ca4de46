/** {@code sreport}: usage reports from sluice-dbd's hourly rollups, in Slurm 22.05's layout. */
package dev.sluice.cli.command.sreport;
