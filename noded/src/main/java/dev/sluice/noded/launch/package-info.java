/**
 * Running jobs on the node: the batch script as the submitting user, its environment and
 * output files, signals and time limits. Environment and filename rules are pure functions.
 */
package dev.sluice.noded.launch;
