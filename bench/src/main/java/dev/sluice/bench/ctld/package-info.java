/**
 * The controller-bound benchmark: a real sluice-ctld and sluice-dbd fed by many simulated node
 * daemons in one process ({@link dev.sluice.bench.ctld.SimulatedNodes}) whose jobs end the moment
 * they start, so that the controller and the accounting daemon are all the work there is. Run by
 * {@code scripts/bench-ctld} (docs/benchmarks.md).
 */
package dev.sluice.bench.ctld;
