/**
 * What the commands share: reaching the controller (with Slurm's texts when the configuration
 * or the connection fails), the {@code Try "cmd --help"} convention, comma lists. Each command
 * lives in a sub-package that owns its options, filters and output layout.
 */
package dev.sluice.cli.command;
