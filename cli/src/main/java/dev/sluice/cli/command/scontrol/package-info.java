/**
 * {@code scontrol}: {@code show job|node|partition|hostnames|hostlist|hostlistsorted}, the
 * Sluice addition {@code show scalein},
 * {@code update NodeName=... State=...}, {@code ping}. The {@code Key=Value} layouts (line
 * breaks, three-space indents, trailing spaces, the one-line {@code -o} form) were copied field
 * by field from Slurm 22.05's scontrol output; fields Sluice does not track print the value
 * Slurm prints when the field is unset.
 */
package dev.sluice.cli.command.scontrol;
