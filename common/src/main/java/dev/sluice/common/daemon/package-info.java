/**
 * What every daemon's command line shares: its options as one table that both parses the
 * arguments ({@code getopt}'s error texts) and prints the {@code -h} usage, so the help lists
 * exactly the options that are accepted.
 */
package dev.sluice.common.daemon;
