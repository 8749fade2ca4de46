package dev.sluice.cli.command.sbatch;

import java.util.List;

/**
 * A submission sbatch refuses before contacting the controller: the lines to print (without
 * the {@code sbatch: } prefix, which the command adds) and Slurm's exit status for the case
 * (255 for bad option values Slurm rejects while parsing, 1 for the rest).
 */
final class SbatchException extends Exception {
    private final List<String> lines;
    private final int exitCode;

    SbatchException(int exitCode, String... lines) {
        super(String.join("\n", lines));
        this.lines = List.of(lines);
        this.exitCode = exitCode;
    }

    List<String> lines() {
        return lines;
    }

    int exitCode() {
        return exitCode;
    }
}
