package dev.sluice.cli.caller;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * A file operation the caller's process could not do, with the errno it met, so that a command
 * prints the same text whether it ran in its own JVM or through sluice-agent.
 */
public final class CallerFileException extends IOException {
    private final Errno errno;

    public CallerFileException(String path, Errno errno) {
        super(path + ": " + errno.text());
        this.errno = requireNonNull(errno, "errno is null");
    }

    public Errno errno() {
        return errno;
    }

    /** strerror(3)'s text, as Slurm's commands print it after {@code %m}. */
    public String reason() {
        return errno.text();
    }
}
