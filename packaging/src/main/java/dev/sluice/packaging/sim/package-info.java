/**
 * Simulation over the real controller: simulated nodes and a manual clock, with the real
 * journal, scheduler, allocator and commands. Used by golden scenario tests, by
 * {@code sluice select-query}, and by {@code sluice scale} ({@link
 * dev.sluice.packaging.sim.ScaleHarness}: pass time and heap with thousands of nodes and a deep
 * queue). The simulated nodes ({@code SimulatedNodes}) report back through an outbox that a
 * registrar drains into the controller, as a node daemon does, so every part is wired when it
 * is built.
 */
package dev.sluice.packaging.sim;
