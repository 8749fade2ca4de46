/**
 * JSON as Slurm's commands print it ({@code squeue --json}, {@code sinfo --json}): json-c's
 * pretty layout, and the {@code meta}/{@code errors} envelope of Slurm 22.05's data_parser
 * v0.0.38. A few dozen lines of writer instead of a JSON library, because a command's whole run
 * is its start-up and Slurm's byte layout (escaped slashes, {@code 2.0}, no final newline) is
 * not what a library prints. {@code JobRecord38} is the v0.0.38 job record itself, shared with
 * the REST daemon's v0.0.38 answers.
 */
package dev.sluice.cli.json;
