package dev.sluice.cli.command;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ClientAuth;
import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.GetoptException;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.gres.GresRequest;
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
            ClusterAccess access = inv.setup().access(ControllerLocator.confPath(inv.env(), inv.cwd()));
            ClientAuth auth =
                    ClientAuth.forCaller(access, inv.env(), inv.caller(), java.time.Clock.systemUTC(), inv.onBehalf());
            return Optional.of(new ControllerClient(
                    ControllerLocator.addresses(access.conf()),
                    inv.caller(),
                    auth,
                    inv.setup().transport(),
                    inv.setup().queries()));
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

    /**
     * Whether {@code --gres} names only GRES the configuration's {@code GresTypes} has, and not
     * GPUs together with MPS; if not, prints Slurm's own refusal, which the commands make before asking the controller
     * ({@code sbatch: error: Invalid generic resource (gres) specification}). A count or type
     * no node has is the controller's to refuse.
     */
    public static boolean knownGres(Invocation inv, String gres, String program, PrintStream err) {
        if (gres == null || gres.isBlank()) {
            return true;
        }
        List<String> types;
        try {
            types = inv.setup()
                    .access(ControllerLocator.confPath(inv.env(), inv.cwd()))
                    .conf()
                    .gresTypes();
        } catch (ConfigException | IllegalArgumentException e) {
            return true;
        }
        try {
            List<String> names =
                    GresRequest.parseList(gres).stream().map(GresRequest::name).toList();
            // A GPU and MPS shares of GPUs in one job are refused too (Slurm 22.05, recorded).
            if (!types.containsAll(names) || (names.contains("gpu") && names.contains("mps"))) {
                err.println(program + ": error: " + GresRequest.INVALID);
                return false;
            }
        } catch (IllegalArgumentException e) {
            return true;
        }
        return true;
    }

    /**
     * The caller's {@code ClusterName}, for the {@code cluster} member of {@code --json}
     * output; empty when the configuration cannot be read (connecting reports that).
     */
    public static String clusterName(Invocation inv) {
        try {
            return inv.setup()
                    .access(ControllerLocator.confPath(inv.env(), inv.cwd()))
                    .conf()
                    .clusterName();
        } catch (ConfigException | IllegalArgumentException e) {
            return "";
        }
    }

    /** glibc's message and Slurm's hint line for a bad command line. */
    public static void usageError(GetoptException e, String program, PrintStream err) {
        err.println(e.getMessage());
        err.println("Try \"" + program + " --help\" for more information");
    }

    /**
     * Parses a command's line; empty after printing glibc's message and Slurm's hint (the
     * command then exits with its usage-error status).
     */
    public static Optional<Getopt.Result> parse(String program, OptionTable table, Invocation inv, PrintStream err) {
        try {
            return Optional.of(Getopt.parse(program, table, inv.args()));
        } catch (GetoptException e) {
            usageError(e, program, err);
            return Optional.empty();
        }
    }

    /**
     * Parses a reporting command's line (squeue, sinfo): options only, no operands. Empty after
     * printing Slurm's message and usage, as those commands do, when the line is bad.
     */
    public static Optional<Getopt.Result> parseOptionsOnly(
            String program, OptionTable table, String usage, Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = parse(program, table, inv, err);
        if (line.isEmpty()) {
            return line;
        }
        Getopt.Result parsed = line.get();
        if (!parsed.operands().isEmpty()) {
            err.println(program + ": error: Unrecognized option: "
                    + parsed.operands().get(0));
            out.print(usage);
            return Optional.empty();
        }
        return Optional.of(parsed);
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

    /**
     * A job's environment as the wire carries it: values as bytes, exactly as the caller had
     * them ({@link dev.sluice.common.text.RawText}). A name that is not UTF-8 cannot travel (the
     * wire's names are text) and is left out.
     */
    public static java.util.Map<String, com.google.protobuf.ByteString> wireEnvironment(
            java.util.Map<String, String> env) {
        java.util.Map<String, com.google.protobuf.ByteString> out = new java.util.TreeMap<>();
        env.forEach((k, v) -> {
            if (!dev.sluice.common.text.RawText.hasEscapes(k)) {
                out.put(k, com.google.protobuf.ByteString.copyFrom(dev.sluice.common.text.RawText.encode(v)));
            }
        });
        return out;
    }
}
