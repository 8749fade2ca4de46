package dev.sluice.cli.client;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;

/**
 * A request the controller refused, or could not be asked. {@link #code()} keeps Slurm's errno
 * so each command can print Slurm's text ({@code slurm_load_jobs error: ...}) and pick Slurm's
 * exit status; {@link #getMessage()} is the text to print after the command's prefix.
 */
public final class ControllerException extends Exception {
    private final ErrorCode code;
    private final int number;
    private final String userMessage;

    public ControllerException(int number, String message) {
        this(number, message, "");
    }

    /** @param userMessage Slurm's err_msg, printed as an error line of its own; empty for none */
    public ControllerException(int number, String message, String userMessage) {
        super(message);
        this.number = number;
        this.code = ErrorCode.fromNumber(number);
        this.userMessage = userMessage;
    }

    public ControllerException(ErrorCode code) {
        this(code.number(), code.text());
        requireNonNull(code, "code is null");
    }

    public ErrorCode code() {
        return code;
    }

    /**
     * The controller's extra line ({@code Memory specification can not be satisfied}), which
     * sbatch, salloc and srun print as {@code PROG: error: LINE} before the failure; empty for none.
     */
    public String userMessage() {
        return userMessage;
    }

    /** Slurm's errno as received, even when {@link ErrorCode} has no constant for it. */
    public int number() {
        return number;
    }
}
