/**
 * Slurm 22.05's REST API, data parser v0.0.38 ({@code /slurm/v0.0.38/}): flat objects, NO_VAL
 * as {@code null}, errors as each endpoint of slurmrestd 22.05 words them. Its answers are
 * compared side by side with Debian's slurmrestd 22.05 by the differential suite (compat/,
 * scenarios 140 on), never written from memory.
 */
package dev.sluice.restd.v0038;
