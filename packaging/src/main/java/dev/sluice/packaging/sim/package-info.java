/**
 * Simulation over the real controller: simulated nodes and a manual clock, with the real
 * journal, scheduler, allocator and commands. Used by golden scenario tests and by
 * {@code sluice select-query}.
 */
package dev.sluice.packaging.sim;
