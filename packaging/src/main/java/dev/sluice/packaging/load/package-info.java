/**
 * Load generators for {@code scripts/bench-e2e} (docs/benchmarks.md): clients that talk to a
 * running controller the way an API user would, with many requests in flight at once, and
 * time how long the cluster takes to finish what they asked for.
 */
package dev.sluice.packaging.load;
