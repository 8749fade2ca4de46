package dev.sluice.cli.command.scontrol;

/**
 * What scontrol's options change in {@code show}: {@code -o} one line per record, {@code -a}
 * hidden partitions too ({@code --hide} undoes it), {@code -Q} no messages but errors,
 * {@code -v} the {@code last_update_time=..., records=N} line before a listing, {@code -d} the
 * jobs' and nodes' detail lines.
 */
record ShowFlags(boolean oneLiner, boolean all, boolean quiet, boolean verbose, boolean details) {}
