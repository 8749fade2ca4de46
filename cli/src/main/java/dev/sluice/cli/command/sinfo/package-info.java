/**
 * {@code sinfo}: options and {@code SINFO_*} variables, node filters, the {@code -o} field
 * letters, and the grouping of (partition, node) records into lines: records whose printed
 * fields are equal share a line, their nodes joined into one hostlist, as Slurm groups them.
 * Formats, widths and orderings were settled against Slurm 22.05's sinfo.
 */
package dev.sluice.cli.command.sinfo;
