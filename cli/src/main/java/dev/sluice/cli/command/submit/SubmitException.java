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
    private final String output;

    public SubmitException(int exitCode, String... lines) {
        this(exitCode, "", List.of(lines));
    }

    private SubmitException(int exitCode, String output, List<String> lines) {
        super(String.join("\n", lines));
        this.lines = lines;
        this.exitCode = exitCode;
        this.output = output;
    }

    /** A help text Slurm prints on standard output before it stops ({@code --hint=help}). */
    public static SubmitException printing(int exitCode, String output) {
        return new SubmitException(exitCode, output, List.of());
    }

    /** For standard output, as it is (empty for most refusals). */
    public String output() {
        return output;
    }

    public List<String> lines() {
        return lines;
    }

    public int exitCode() {
        return exitCode;
    }
}
