package dev.sluice.cli.command.srun;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.salloc.Allocation;
import dev.sluice.cli.command.submit.WarnSignalOption;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.CreateStepRequest;
import dev.sluice.protocol.v1.CreateStepResponse;
import dev.sluice.protocol.v1.StepCompleteRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code srun}: inside an allocation ({@code SLURM_JOB_ID} set, or {@code --jobid}) it asks the
 * controller for a step; outside one it first makes an allocation for the step and releases it
 * with srun's exit code, as Slurm's srun does. The tasks' output arrives live on a socket of
 * srun's own (each node of the step connects to it) and is printed ({@code -l}: prefixed by the
 * task id); srun exits with the highest task exit code. Ctrl-C is forwarded to every task. srun
 * talks frames to the controller, never gRPC (its start-up time is the user's).
 */
public final class SrunCommand implements Command {
    private static final String PROG = "srun";

    private static final OptionTable TABLE = OptionTable.builder()
            .stopAtFirstOperand()
            .add('n', "ntasks", ArgKind.REQUIRED)
            .add('N', "nodes", ArgKind.REQUIRED)
            .add('c', "cpus-per-task", ArgKind.REQUIRED)
            .add((char) 0, "gres", ArgKind.REQUIRED)
            .add('G', "gpus", ArgKind.REQUIRED)
            .add((char) 0, "exclusive", ArgKind.OPTIONAL)
            .add((char) 0, "overlap", ArgKind.NONE)
            .add('l', "label", ArgKind.NONE)
            .add('J', "job-name", ArgKind.REQUIRED)
            .add('p', "partition", ArgKind.REQUIRED)
            .add('t', "time", ArgKind.REQUIRED)
            .add((char) 0, "jobid", ArgKind.REQUIRED)
            .add('u', "unbuffered", ArgKind.NONE)
            .add('Q', "quiet", ArgKind.NONE)
            .add((char) 0, "signal", ArgKind.REQUIRED)
            .add((char) 0, "help", ArgKind.NONE)
            .add((char) 0, "usage", ArgKind.NONE)
            .build();

    private static final String USAGE = """
            Usage: srun [-N nnodes] [-n ntasks] [-c ncpus] [--gres=list] [-G ngpus] [--exclusive]
                        [-l] [-J jobname] [--jobid=id] executable [args...]
            """;

    /** What the options say, with Slurm's defaults inside an allocation. */
    record Options(
            int ntasks,
            int nodes,
            int cpusPerTask,
            String gres,
            boolean exclusive,
            boolean label,
            boolean quiet,
            String name,
            String jobId,
            String partition,
            String time,
            List<String> argv,
            Optional<WarnSignalOption.Spec> signal) {
        Options inJob(int id) {
            return new Options(
                    ntasks,
                    nodes,
                    cpusPerTask,
                    gres,
                    exclusive,
                    label,
                    quiet,
                    name,
                    Integer.toString(id),
                    partition,
                    time,
                    argv,
                    signal);
        }
    }

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        Optional<Options> options = options(inv, parsed, out, err);
        if (options.isEmpty()) {
            return parsed.options().stream()
                            .anyMatch(o -> o.key().equals("help") || o.key().equals("usage"))
                    ? 0
                    : 1;
        }
        Options o = options.get();
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty() || !CommandSupport.knownGres(inv, o.gres(), PROG, err)) {
            return 1;
        }
        if (o.jobId().isEmpty()) {
            return runInNewAllocation(client.get(), inv, o, out, err);
        }
        return runStep(client.get(), inv, inv.env(), o, out, err);
    }

    /**
     * A lone srun, as Slurm's: an allocation of exactly what the step needs, the step in it, and
     * the allocation released with srun's exit code.
     */
    private static int runInNewAllocation(
            ControllerClient client, Invocation inv, Options o, PrintStream out, PrintStream err) {
        Allocation allocation;
        try {
            allocation = Allocation.submit(
                    client,
                    inv,
                    new Allocation.Request(
                            o.name().isEmpty() ? baseName(o.argv().get(0)) : o.name(),
                            o.nodes(),
                            o.ntasks(),
                            o.cpusPerTask(),
                            o.gres(),
                            o.partition(),
                            o.time(),
                            o.exclusive(),
                            String.join(" ", o.argv()),
                            o.signal()));
        } catch (ControllerException e) {
            if (!e.userMessage().isEmpty()) {
                err.println(PROG + ": error: " + e.userMessage());
            }
            err.println(PROG + ": error: Unable to allocate resources: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println(PROG + ": error: Invalid time limit specification");
            return 1;
        }
        int code = 1;
        try {
            if (!allocation.awaitStart(PROG, err)) {
                return 1;
            }
            code = runStep(client, inv, allocation.environment(inv.env()), o.inJob(allocation.jobId()), out, err);
        } catch (ControllerException e) {
            err.println(PROG + ": error: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            allocation.release(code << 8);
        }
        return code;
    }

    private static String baseName(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }

    private static int runStep(
            ControllerClient client,
            Invocation inv,
            Map<String, String> env,
            Options o,
            PrintStream out,
            PrintStream err) {
        try (StepIoServer io = StepIoServer.open(o.label(), out, err)) {
            CreateStepResponse step = create(client, inv, env, o, io, err);
            if (step == null) {
                return 1;
            }
            int code;
            try (var ignored =
                    Interrupts.forwardTo(inv, io, err, PROG + ": interrupt (signal forwarded to the tasks)")) {
                code = io.serve(step.getNumNodes(), step.getNumTasks());
            }
            complete(client, Integer.parseInt(o.jobId()), step.getStepId(), code << 8);
            return code;
        } catch (IOException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return 1;
        }
    }

    private static Optional<Options> options(Invocation inv, Getopt.Result parsed, PrintStream out, PrintStream err) {
        int ntasks = 0;
        int nodes = 0;
        int cpus = 0;
        String gres = "";
        boolean exclusive = false;
        boolean label = false;
        boolean quiet = false;
        String name = "";
        String partition = "";
        String time = "";
        String jobId = inv.env().getOrDefault("SLURM_JOB_ID", inv.env().getOrDefault("SLURM_JOBID", ""));
        Optional<WarnSignalOption.Spec> signal = Optional.empty();
        try {
            for (ParsedOption opt : parsed.options()) {
                switch (opt.key()) {
                    case "help", "usage" -> {
                        out.print(USAGE);
                        return Optional.empty();
                    }
                    case "ntasks" -> ntasks = positive(opt);
                    case "nodes" -> nodes = positive(opt);
                    case "cpus-per-task" -> cpus = positive(opt);
                    case "gres" -> gres = opt.value();
                    case "gpus" -> gres = "gpu:" + opt.value();
                    case "exclusive" -> exclusive = true;
                    case "overlap" -> exclusive = false;
                    case "label" -> label = true;
                    case "job-name" -> name = opt.value();
                    case "jobid" -> jobId = opt.value();
                    case "partition" -> partition = opt.value();
                    case "time" -> time = opt.value();
                    case "quiet" -> quiet = true;
                    case "signal" -> {
                        signal = WarnSignalOption.parse(opt.value());
                        if (signal.isEmpty()) {
                            err.println(PROG + ": error: Invalid --signal specification");
                            return Optional.empty();
                        }
                    }
                    case "unbuffered" -> {
                        // output is always passed on as it arrives
                    }
                    default -> throw new IllegalStateException("unhandled srun option " + opt.key());
                }
            }
        } catch (NumberFormatException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return Optional.empty();
        }
        if (parsed.operands().isEmpty()) {
            err.println(PROG + ": fatal: No command given to execute.");
            return Optional.empty();
        }
        if (ntasks == 0) {
            // Inside an allocation Slurm's srun takes the job's task count unless -N says otherwise.
            ntasks = nodes > 0 ? nodes : intEnv(inv, "SLURM_NTASKS", 1);
        }
        if (jobId.contains("_") || (!jobId.isEmpty() && !jobId.chars().allMatch(Character::isDigit))) {
            err.println(PROG + ": error: Invalid job id: " + jobId);
            return Optional.empty();
        }
        return Optional.of(new Options(
                ntasks,
                nodes,
                cpus,
                gres,
                exclusive,
                label,
                quiet,
                name,
                jobId,
                partition,
                time,
                List.copyOf(parsed.operands()),
                signal));
    }

    private static int positive(ParsedOption opt) {
        int n = Integer.parseInt(opt.value().strip());
        if (n <= 0) {
            throw new NumberFormatException("Invalid numeric value \"" + opt.value() + "\" for " + opt.spelling());
        }
        return n;
    }

    private static int intEnv(Invocation inv, String name, int fallback) {
        try {
            return Integer.parseInt(inv.env().getOrDefault(name, Integer.toString(fallback)));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Asks for the step until it gets one; "busy" means other exclusive steps hold what it needs. */
    private static CreateStepResponse create(
            ControllerClient client,
            Invocation inv,
            Map<String, String> env,
            Options o,
            StepIoServer io,
            PrintStream err)
            throws IOException {
        CreateStepRequest.Builder request = CreateStepRequest.newBuilder()
                .setJobId(Integer.parseInt(o.jobId()))
                .setNumTasks(o.ntasks())
                .setNumNodes(o.nodes())
                .setCpusPerTask(o.cpusPerTask())
                .setGres(o.gres())
                .setExclusive(o.exclusive())
                .addAllArgv(o.argv())
                .putAllEnvironment(env)
                .setWorkDir(inv.cwd().toString())
                .setIoHost(io.host(inv.caller().host()))
                .setIoPort(io.port())
                .setName(o.name().isEmpty() ? baseName(o.argv().get(0)) : o.name())
                // An agent's srun runs in the agent's JVM; its pid is still the process that
                // relays the step's I/O, which is what SrunHost:Pid points an administrator to.
                .setSrunHost(inv.caller().host())
                .setSrunPid((int) ProcessHandle.current().pid());
        boolean told = false;
        long delayMs = 100;
        while (true) {
            try {
                CreateStepResponse step = client.call(ClientRequest.newBuilder().setCreateStep(request))
                        .getCreateStep();
                if (told && !o.quiet()) {
                    err.println(PROG + ": Step created for job " + o.jobId());
                }
                return step;
            } catch (ControllerException e) {
                if (e.getMessage().equals(ErrorCode.NODES_BUSY.text())) {
                    if (!told && !o.quiet()) {
                        err.println(PROG + ": Job " + o.jobId()
                                + " step creation temporarily disabled, retrying (Requested nodes are busy)");
                        err.flush();
                        told = true;
                    }
                    // srun polls as Slurm's does; a step ending frees resources without telling it.
                    io.pause(delayMs);
                    delayMs = Math.min(1000, delayMs * 2);
                    continue;
                }
                err.println(PROG + ": error: Unable to create step for job " + o.jobId() + ": " + e.getMessage());
                return null;
            }
        }
    }

    private static void complete(ControllerClient client, int jobId, int stepId, int status) {
        try {
            client.call(ClientRequest.newBuilder()
                    .setStepComplete(StepCompleteRequest.newBuilder()
                            .setJobId(jobId)
                            .setStepId(stepId)
                            .setStatus(status)));
        } catch (ControllerException e) {
            // The job may have ended meanwhile; its steps went with it.
        }
    }
}
