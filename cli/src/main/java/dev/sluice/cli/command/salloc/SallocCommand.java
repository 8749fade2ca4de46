package dev.sluice.cli.command.salloc;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.submit.WarnSignalOption;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code salloc}: an allocation, then a command on this host (default the user's shell) with
 * {@code SLURM_JOB_ID} and friends set, so that its {@code srun}s run steps in it; the
 * allocation is released when the command ends, with its status (salloc exits with it too).
 */
public final class SallocCommand implements Command {
    private static final String PROG = "salloc";

    static final OptionTable TABLE = OptionTable.builder()
            .stopAtFirstOperand()
            .add('n', "ntasks", ArgKind.REQUIRED)
            .add('N', "nodes", ArgKind.REQUIRED)
            .add('c', "cpus-per-task", ArgKind.REQUIRED)
            .add((char) 0, "gres", ArgKind.REQUIRED)
            .add('G', "gpus", ArgKind.REQUIRED)
            .add('p', "partition", ArgKind.REQUIRED)
            .add('t', "time", ArgKind.REQUIRED)
            .add('J', "job-name", ArgKind.REQUIRED)
            .add((char) 0, "exclusive", ArgKind.OPTIONAL)
            .add('Q', "quiet", ArgKind.NONE)
            .add((char) 0, "signal", ArgKind.REQUIRED)
            .add((char) 0, "help", ArgKind.NONE)
            .add((char) 0, "usage", ArgKind.NONE)
            .build();

    private static final String USAGE = """
            Usage: salloc [-N nnodes] [-n ntasks] [-c ncpus] [--gres=list] [-G ngpus] [-p partition]
                          [-t time] [-J jobname] [--exclusive] [-Q] [command [args...]]
            """;

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        int nodes = 0;
        int tasks = 0;
        int cpus = 0;
        String gres = "";
        String partition = "";
        String time = "";
        String name = "";
        boolean exclusive = false;
        boolean quiet = false;
        Optional<WarnSignalOption.Spec> signal = Optional.empty();
        try {
            for (ParsedOption o : parsed.options()) {
                switch (o.key()) {
                    case "help", "usage" -> {
                        out.print(USAGE);
                        return 0;
                    }
                    case "ntasks" -> tasks = Integer.parseInt(o.value().strip());
                    case "nodes" -> nodes = Integer.parseInt(o.value().strip());
                    case "cpus-per-task" -> cpus = Integer.parseInt(o.value().strip());
                    case "gres" -> gres = o.value();
                    case "gpus" -> gres = "gpu:" + o.value();
                    case "partition" -> partition = o.value();
                    case "time" -> time = o.value();
                    case "job-name" -> name = o.value();
                    case "exclusive" -> exclusive = true;
                    case "quiet" -> quiet = true;
                    case "signal" -> {
                        signal = WarnSignalOption.parse(o.value());
                        if (signal.isEmpty()) {
                            err.println(PROG + ": error: Invalid --signal specification");
                            return 255;
                        }
                    }
                    default -> throw new IllegalStateException("unhandled salloc option " + o.key());
                }
            }
        } catch (NumberFormatException e) {
            err.println(PROG + ": error: Invalid numeric value: " + e.getMessage());
            return 1;
        }
        List<String> command = new ArrayList<>(parsed.operands());
        if (command.isEmpty()) {
            command.add(inv.env().getOrDefault("SHELL", "/bin/sh"));
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty() || !CommandSupport.knownGres(inv, gres, PROG, err)) {
            return 1;
        }
        Allocation allocation;
        try {
            allocation = Allocation.submit(
                    client.get(),
                    inv,
                    new Allocation.Request(
                            name.isEmpty() ? baseName(command.get(0)) : name,
                            nodes,
                            tasks,
                            cpus,
                            gres,
                            partition,
                            time,
                            exclusive,
                            String.join(" ", command),
                            signal));
        } catch (ControllerException e) {
            if (!e.userMessage().isEmpty()) {
                err.println(PROG + ": error: " + e.userMessage());
            }
            err.println(PROG + ": error: Job submit/allocate failed: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println(PROG + ": error: Invalid time limit specification");
            return 1;
        }
        int status = 1 << 8;
        try {
            if (!allocation.awaitStart(PROG, err)) {
                return 1;
            }
            if (!quiet) {
                err.println(PROG + ": Granted job allocation " + allocation.jobId());
                err.flush();
            }
            status = runHere(inv, command, allocation);
        } catch (ControllerException | IOException e) {
            err.println(PROG + ": error: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!quiet) {
                err.println(PROG + ": Relinquishing job allocation " + allocation.jobId());
                err.flush();
            }
            allocation.release(status);
        }
        return (status & 0x7f) != 0 ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
    }

    /**
     * Runs the command on this host, as the caller and on the caller's terminal (through
     * sluice-agent: started by the caller's front end, never by the agent); returns its wait status.
     */
    private static int runHere(Invocation inv, List<String> command, Allocation allocation)
            throws IOException, InterruptedException {
        return inv.callerSide()
                .run(command, allocation.environment(inv.env()), inv.cwd().toString());
    }

    private static String baseName(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
