/**
 * {@code sacctmgr}, first cut: clusters, accounts, users and associations (add, show, delete)
 * stored by sluice-dbd, with Slurm 22.05's wording and layouts.
 */
package dev.sluice.cli.command.sacctmgr;
