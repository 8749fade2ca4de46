/**
 * Placement: the pure allocator (Slurm's select/cons_tres) that maps a snapshot of node
 * capacities and one job's request to a placement, a pending reason, or a rejection. Owns no
 * state, does no I/O and reads no clock; must not import protocol, gRPC or netty classes.
 */
package dev.sluice.ctld.select;
