package dev.sluice.cli.getopt;

/**
 * Bad command line. The message is the line glibc's getopt prints, program name included
 * (for example {@code sbatch: unrecognized option '--foo'}); the command adds its own
 * {@code Try "... --help"} line and exit status.
 */
public final class GetoptException extends Exception {
    public GetoptException(String message) {
        super(message);
    }
}
