/**
 * What every daemon's command line shares: its options as one table that both parses the
 * arguments ({@code getopt}'s error texts) and prints the {@code -h} usage, so the help lists
 * exactly the options that are accepted; and the connections a blocking command server holds
 * open, closed with it ({@link dev.sluice.common.daemon.OpenConnections}).
 */
package dev.sluice.common.daemon;
