/**
 * {@code srun}: job steps inside an allocation. Options as Slurm's, the step from the controller
 * over the command socket, the tasks' output over a socket srun listens on (docs/protocol.md).
 */
package dev.sluice.cli.command.srun;
