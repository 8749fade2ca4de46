/**
 * Trackable resources (TRES): the {@code cpu=2,mem=16000M,node=2,billing=2,gres/gpu=4} strings that
 * Slurm prints for jobs ({@code ReqTRES=}, {@code AllocTRES=}), accounts and limits, with Slurm's
 * ordering and memory units. Pure values.
 */
package dev.sluice.common.tres;
