/**
 * The {@code /slurmdb/vX.Y.Z/} tree: accounting's jobs, TRES, accounts, users, associations,
 * QOS, wckeys and clusters from sluice-dbd, asked with the REST user's own token, in each data
 * parser version's JSON; and their changes, each body read whole, tried, then committed
 * ({@link dev.sluice.restd.slurmdb.DbWrites}), with the daemon's statistics and configuration.
 */
package dev.sluice.restd.slurmdb;
