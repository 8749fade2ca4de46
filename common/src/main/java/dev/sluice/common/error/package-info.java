/** Slurm-compatible error numbers and texts, and the exception that carries them. */
package dev.sluice.common.error;
