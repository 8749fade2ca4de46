/**
 * Where noded's protobuf and its own values meet: the controller's batch launch becomes a
 * {@link dev.sluice.noded.job.BatchJob} here, once, when it arrives (rpc) and when the spool
 * reads a spooled launch back; and a job is written back to the same message for the spool.
 * Launch code works on the typed values only.
 */
package dev.sluice.noded.wire;
