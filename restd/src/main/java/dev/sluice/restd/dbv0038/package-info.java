/**
 * Slurm 22.05's accounting REST API, data parser dbv0.0.38 ({@code /slurmdb/v0.0.38/}): jobs as
 * accounting keeps them, accounts, users, associations, QOS, TRES, clusters and config, asked of
 * sluice-dbd as sacct and sacctmgr ask it, in the shapes slurmrestd 22.05 answers (unset values
 * as {@code null}, errors as its openapi errors). Compared side by side with Debian's slurmrestd
 * 22.05 by the differential suite (compat/, scenarios 152 to 154), never written from memory.
 */
package dev.sluice.restd.dbv0038;
