package dev.sluice.common.error;

import static java.util.Objects.requireNonNull;

/**
 * An expected failure that reaches a user: carries Slurm's error code, and a message that is
 * Slurm's text unless a more specific one is given.
 */
public class SlurmException extends RuntimeException {
    private final ErrorCode code;

    public SlurmException(ErrorCode code) {
        this(code, code.text());
    }

    public SlurmException(ErrorCode code, String message) {
        super(message);
        this.code = requireNonNull(code, "code is null");
    }

    public ErrorCode code() {
        return code;
    }
}
