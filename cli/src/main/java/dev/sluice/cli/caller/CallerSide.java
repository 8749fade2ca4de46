package dev.sluice.cli.caller;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The caller's own process, for everything a command must do as the caller: open the files the
 * caller named and run the programs the caller asked for. Paths are given as the caller typed
 * them; a relative one is taken from the caller's working directory. Nothing here is ever done
 * with more rights than the caller has (docs/security.md).
 */
public interface CallerSide {
    /**
     * The whole file, at most {@code limit} bytes.
     *
     * @throws CallerFileException with {@link Errno#EFBIG} when it is longer than {@code limit},
     *     or the error the caller's open or read met
     */
    byte[] read(String path, int limit) throws CallerFileException;

    /**
     * Creates or truncates (or, with {@code append}, appends to) the file and writes {@code data},
     * with mode 0666 less the caller's umask for a new file, as {@code fopen(path, "w")} would.
     */
    void write(String path, byte[] data, boolean append) throws CallerFileException;

    /** Whether the caller may open the file for reading; the error it would meet if not. */
    void checkReadable(String path) throws CallerFileException;

    /**
     * Runs a program as the caller, on the caller's terminal (standard streams), with exactly
     * {@code env}, in {@code cwd}, and waits for it.
     *
     * @return its wait(2) status: exit code {@code << 8}, or the number of the signal that ended it
     * @throws IOException when it could not be started (the status of a shell's "command not
     *     found" is the caller's to print)
     */
    int run(List<String> argv, Map<String, String> env, String cwd) throws IOException, InterruptedException;
}
