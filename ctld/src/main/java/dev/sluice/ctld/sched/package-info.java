/**
 * Scheduling passes: pure functions from an immutable cluster image to a plan of job starts
 * and pending reasons. No I/O, threads, clock or protocol classes.
 */
package dev.sluice.ctld.sched;
