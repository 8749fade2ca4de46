package dev.sluice.cli.command.submit;

import java.util.List;

/**
 * A submission sbatch, srun or salloc refuses before contacting the controller: the lines to
 * print (without the {@code sbatch: } prefix, which the command adds) and Slurm's exit status
 * for the case (255 for bad option values Slurm rejects while parsing, 1 for the rest).
 */
public final class SubmitException extends Exception {
    private final List<String> lines;
    private final int exitCode;

    public SubmitException(int exitCode, String... lines) {
        super(String.join("\n", lines));
        this.lines = List.of(lines);
        this.exitCode = exitCode;
    }

    public List<String> lines() {
        return lines;
    }

    public int exitCode() {
        return exitCode;
    }
}
