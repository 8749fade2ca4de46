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

    public ControllerException(int number, String message) {
        super(message);
        this.number = number;
        this.code = ErrorCode.fromNumber(number);
    }

    public ControllerException(ErrorCode code) {
        this(code.number(), code.text());
        requireNonNull(code, "code is null");
    }

    public ErrorCode code() {
        return code;
    }

    /** Slurm's errno as received, even when {@link ErrorCode} has no constant for it. */
    public int number() {
        return number;
    }
}
