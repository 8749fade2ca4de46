/**
 * JMH micro-benchmarks of the controller's hot paths: the allocator on a large cluster, a
 * scheduling pass over a deep queue, journal appends with group commit, and image publication.
 * {@link dev.sluice.bench.Fixtures} builds the clusters and queues they run on. Run them with
 * {@code java -jar bench/target/benchmarks.jar}; {@code ./mvnw verify} only runs each body once
 * to keep them working (docs/benchmarks.md).
 */
package dev.sluice.bench;
