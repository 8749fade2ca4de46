/**
 * The accounting daemon's benchmark: a real sluice-dbd (against MariaDB or its embedded H2) fed
 * job lifecycles' accounting records over gRPC in batches, as the controller's outbox ships them,
 * so that the daemon's CPU per job is all that is measured. Run by {@code scripts/bench-dbd}
 * (docs/benchmarks.md).
 */
package dev.sluice.bench.dbd;
