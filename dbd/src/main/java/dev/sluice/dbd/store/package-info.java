/**
 * The accounting database: connection pool, Flyway migrations, the idempotent batch writer and
 * the sacct queries. The only package that speaks SQL.
 */
package dev.sluice.dbd.store;
