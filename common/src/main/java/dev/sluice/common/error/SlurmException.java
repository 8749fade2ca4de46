package dev.sluice.common.error;

import static java.util.Objects.requireNonNull;

/**
 * An expected failure that reaches a user: carries Slurm's error code, and a message that is
 * Slurm's text unless a more specific one is given.
 */
public class SlurmException extends RuntimeException {
    private final ErrorCode code;
    private final String userMessage;

    public SlurmException(ErrorCode code) {
        this(code, code.text());
    }

    public SlurmException(ErrorCode code, String message) {
        this(code, message, "");
    }

    /**
     * @param userMessage Slurm's {@code err_msg}: a line the command prints as an error of its own
     *     before the failure ({@code Memory specification can not be satisfied}); empty for none
     */
    public SlurmException(ErrorCode code, String message, String userMessage) {
        super(message);
        this.code = requireNonNull(code, "code is null");
        this.userMessage = requireNonNull(userMessage, "userMessage is null");
    }

    public String userMessage() {
        return userMessage;
    }

    public ErrorCode code() {
        return code;
    }
}
