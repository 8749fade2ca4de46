/**
 * Workload replay: a trace in the Standard Workload Format of the Parallel Workloads Archive (or a
 * seeded, generated one) run through the controller's own submission path, scheduler, backfill
 * and allocator on a virtual clock, with the usual scheduling metrics (makespan, utilisation,
 * waits, bounded slowdown). Pure: no threads, sockets or files; {@link
 * dev.sluice.packaging.replay.Simulate} ({@code sluice simulate}) does the reading and printing.
 */
package dev.sluice.packaging.replay;
