/**
 * The {@code /slurmdb/vX.Y.Z/} tree: accounting's jobs, TRES, associations, QOS and clusters
 * from sluice-dbd, asked with the REST user's own token, in each data parser version's JSON.
 */
package dev.sluice.restd.slurmdb;
