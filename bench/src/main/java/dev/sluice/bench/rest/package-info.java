/**
 * What REST pollers cost the scheduler ({@code scripts/bench-rest}): the controller-bound cluster
 * of {@code scripts/bench-ctld} with a real sluice-restd before it, and many HTTP clients in a
 * process of their own, each on its own connection, polling the job listing while the controller
 * runs jobs (docs/benchmarks.md, "REST pollers").
 */
package dev.sluice.bench.rest;
