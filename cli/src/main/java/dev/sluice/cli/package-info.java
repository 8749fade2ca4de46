/**
 * Entry point of the user commands. {@link dev.sluice.cli.Main} is the only class that touches
 * the process (argv, environment, standard streams, exit status, the OS user); every command is
 * a {@link dev.sluice.cli.Command}: a library call from an {@link dev.sluice.cli.Invocation} to
 * output and an exit status, so the same code can later run inside a warm per-host agent.
 */
package dev.sluice.cli;
