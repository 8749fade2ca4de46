package dev.sluice.cli;

import java.io.PrintStream;

/**
 * One user command. Implementations never call {@code System.exit}, never read
 * {@code System.getenv} or the standard streams; they return the exit status Slurm's command
 * would return.
 */
public interface Command {
    int run(Invocation invocation, PrintStream out, PrintStream err);
}
