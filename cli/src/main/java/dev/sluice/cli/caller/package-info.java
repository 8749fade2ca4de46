/**
 * What a command does with the caller's own rights: reading and writing the files named on its
 * command line (a batch script, {@code scontrol write batch_script FILE}, a node-list file) and
 * running a local program ({@code salloc CMD}). A command run in its own JVM does these in its
 * own process ({@link dev.sluice.cli.caller.LocalCallerSide}); run by {@code sluice-agent}, which
 * is root, it asks the caller's native front end to do them ({@code agent.FrontEndSide}), so
 * that no file is opened and no program started with the agent's rights on a caller's behalf.
 */
package dev.sluice.cli.caller;
