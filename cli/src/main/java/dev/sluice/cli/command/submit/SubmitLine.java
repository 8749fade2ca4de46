package dev.sluice.cli.command.submit;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * srun's and salloc's command line read as Slurm reads it: getopt (a bad line is glibc's
 * message, Slurm's hint and exit status 255), then {@code --help}, {@code --usage} and
 * {@code -V} in the order given, then the input variables overlaid by the command line.
 */
public final class SubmitLine {
    /**
     * @param operands the command to run and its arguments
     * @param verbosity how many {@code -v} were given
     */
    public record Parsed(SubmitOptions options, List<String> operands, int verbosity) {}

    private final String program;
    private final OptionTable table;

    public SubmitLine(String program, OptionTable table) {
        this.program = program;
        this.table = table;
    }

    /**
     * The merged options.
     *
     * @throws SubmitException to stop with its status: a bad line (glibc's message and Slurm's
     *     hint are printed already), or {@code --help}/{@code --usage}/{@code -V} (status 0, the
     *     text as its output)
     */
    public Parsed read(Invocation inv, Map<String, String> variables, String help, String usage, PrintStream err)
            throws SubmitException {
        Optional<Getopt.Result> line = CommandSupport.parse(program, table, inv, err);
        if (line.isEmpty()) {
            throw new SubmitException(255);
        }
        int verbosity = 0;
        for (ParsedOption o : line.get().options()) {
            switch (o.key()) {
                case "help" -> throw SubmitException.printing(0, help);
                case "usage" -> throw SubmitException.printing(0, usage);
                case "version" ->
                    throw SubmitException.printing(0, dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE + "\n");
                case "verbose" -> verbosity++;
                default -> {}
            }
        }
        SubmitOptions options = new SubmitOptions();
        options.applyEnv(variables, inv.env());
        options.apply(line.get().options());
        return new Parsed(options, line.get().operands(), verbosity);
    }

    /**
     * Where warnings go: the command's prefix, and flushed at once, since the tasks' output that
     * follows goes to the other stream and Slurm's lines come first.
     */
    public Consumer<String> warnings(PrintStream err) {
        return line -> {
            err.println(program + ": " + line);
            err.flush();
        };
    }

    /** {@code -v}: Slurm's listing of the options taken, before anything is asked of the controller. */
    public void listDefined(Parsed p, Invocation inv, PrintStream err) {
        if (p.verbosity() > 0) {
            for (String l : DefinedOptions.lines(table, p.options(), p.verbosity(), inv)) {
                err.println(program + ": " + l);
            }
            err.flush();
        }
    }

    /** A refusal: its lines with the command's prefix, any help text on standard output. */
    public int refuse(SubmitException e, PrintStream out, PrintStream err) {
        out.print(e.output());
        e.lines().forEach(l -> err.println(program + ": " + l));
        return e.exitCode();
    }
}
