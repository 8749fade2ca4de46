package dev.sluice.cli.command;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.getopt.GetoptException;
import dev.sluice.common.conf.ConfigException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Helpers every command uses; stateless. */
public final class CommandSupport {
    private CommandSupport() {}

    /**
     * A client for the controllers named in the caller's {@code slurm.conf}, or empty after
     * printing why not ({@code PROG: error: ...} and Slurm's {@code PROG: fatal: Unable to
     * process configuration file}).
     */
    public static Optional<ControllerClient> connect(Invocation inv, String program, PrintStream err) {
        try {
            return Optional.of(new ControllerClient(ControllerLocator.locate(inv.env(), inv.cwd()), inv.caller()));
        } catch (ConfigException e) {
            err.println(program + ": error: " + e.getMessage());
            err.println(program + ": fatal: Unable to process configuration file");
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            err.println(program + ": error: " + e.getMessage());
            err.println(program + ": fatal: Unable to process configuration file");
            return Optional.empty();
        }
    }

    /** glibc's message and Slurm's hint line for a bad command line. */
    public static void usageError(GetoptException e, String program, PrintStream err) {
        err.println(e.getMessage());
        err.println("Try \"" + program + " --help\" for more information");
    }

    /** Items of a comma-separated list, blanks dropped ({@code a,,b} is {@code a}, {@code b}). */
    public static List<String> commaList(String value) {
        if (value == null) {
            return List.of();
        }
        return new ArrayList<>(Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList());
    }
}
