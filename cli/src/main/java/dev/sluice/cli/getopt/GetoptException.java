package dev.sluice.cli.getopt;

import java.util.List;

/**
 * Bad command line. The message is the line glibc's getopt prints, program name included
 * (for example {@code sbatch: unrecognized option '--foo'}); the command adds its own
 * {@code Try "... --help"} line and exit status. {@link #before()} holds the options getopt
 * had already returned: a command that acts on each option as it comes (scontrol's
 * {@code -h}, {@code -M}) has acted on those before getopt complains.
 */
public final class GetoptException extends Exception {
    private final transient List<ParsedOption> before;

    public GetoptException(String message) {
        this(message, List.of());
    }

    public GetoptException(String message, List<ParsedOption> before) {
        super(message);
        this.before = List.copyOf(before);
    }

    public List<ParsedOption> before() {
        return before;
    }
}
