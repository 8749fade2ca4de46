/**
 * The {@code /slurmdb/vX.Y.Z/} tree: accounting's jobs, TRES and associations from sluice-dbd,
 * asked with the REST user's own token, in each data parser version's JSON.
 */
package dev.sluice.restd.slurmdb;
