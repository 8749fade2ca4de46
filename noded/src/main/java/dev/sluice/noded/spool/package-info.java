/**
 * The node daemon's durable local state: job scripts and unacknowledged completion reports; and
 * the {@link dev.sluice.noded.spool.Outbox} through which the launcher hands those reports to
 * the registrar without either holding the other.
 */
package dev.sluice.noded.spool;
