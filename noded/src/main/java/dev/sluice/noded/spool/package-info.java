/** The node daemon's durable local state: job scripts and unacknowledged completion reports. */
package dev.sluice.noded.spool;
