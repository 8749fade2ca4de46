/**
 * {@code sacctmgr}: clusters, accounts, users, associations and QOS (add, show, modify, delete)
 * and TRES (show), stored by sluice-dbd, with Slurm 22.05's wording and layouts. What each
 * column is called and how {@code format=} names it is {@link dev.sluice.cli.command.sacctmgr.PrintField}.
 */
package dev.sluice.cli.command.sacctmgr;
