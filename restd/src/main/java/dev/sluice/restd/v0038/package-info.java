/**
 * Slurm 22.05's REST API, data parser v0.0.38 ({@code /slurm/v0.0.38/}): flat objects, NO_VAL
 * as {@code null}, errors as each endpoint of slurmrestd 22.05 words them. Its answers are
 * compared side by side with Debian's slurmrestd 22.05 by the differential suite (compat/,
 * scenarios 140 on), never written from memory. The job record is the cli's
 * {@code JobRecord38}, the one squeue --json prints: 22.05 writes both with the same parser.
 */
package dev.sluice.restd.v0038;
