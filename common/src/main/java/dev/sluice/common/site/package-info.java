/** Sluice-only site settings ({@code sluice.conf}), kept apart from Slurm's own files. */
package dev.sluice.common.site;
