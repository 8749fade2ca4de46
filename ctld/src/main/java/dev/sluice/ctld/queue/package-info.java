/**
 * The pending queue's order and gates: job priorities (basic and multifactor) and job
 * dependencies. Pure functions over an image; no I/O, threads, clock or protocol classes.
 */
package dev.sluice.ctld.queue;
