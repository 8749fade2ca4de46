/**
 * Simulation over the real controller: simulated nodes and a manual clock, with the real
 * journal, scheduler, allocator and commands. Used by golden scenario tests, by
 * {@code sluice select-query}, and by {@code sluice scale} ({@link
 * dev.sluice.packaging.sim.ScaleHarness}: pass time and heap with thousands of nodes and a deep
 * queue).
 */
package dev.sluice.packaging.sim;
