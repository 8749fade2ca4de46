package dev.sluice.cli.command.srun;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.salloc.Allocation;
import dev.sluice.cli.command.submit.ControllerRefusals;
import dev.sluice.cli.command.submit.JobSpecBuilder;
import dev.sluice.cli.command.submit.OptionChecks;
import dev.sluice.cli.command.submit.SubmitException;
import dev.sluice.cli.command.submit.SubmitLine;
import dev.sluice.cli.command.submit.SubmitOptions;
import dev.sluice.cli.command.submit.TestOnly;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.protocol.v1.JobSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code srun}: inside an allocation ({@code SLURM_JOB_ID} set, or {@code --jobid}) it asks the
 * controller for a step; outside one it first makes an allocation for the step and releases it
 * with srun's exit code, as Slurm's srun does. The tasks' output arrives live on a socket of
 * srun's own (each node of the step connects to it) and is printed ({@code -l}: prefixed by the
 * task id) or written to {@code -o/-e} files; srun exits with the highest task exit code. Ctrl-C
 * is forwarded to every task. srun talks frames to the controller, never gRPC (its start-up time
 * is the user's). Every option of Slurm 22.05's srun is taken; docs/commands.md says which are
 * honoured, which draw Slurm's warning and which are only recorded.
 */
public final class SrunCommand implements Command {
    private static final String PROG = "srun";

    private static final SubmitLine LINE = new SubmitLine(PROG, SrunOptions.TABLE);

    /** Sluice starts tasks itself; it has no MPI plugin but "none". */
    private static final String MPI_LIST = "MPI plugin types are...\n\tnone\n";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        try {
            return srun(inv, out, err);
        } catch (SubmitException e) {
            return LINE.refuse(e, out, err);
        }
    }

    private int srun(Invocation inv, PrintStream out, PrintStream err) throws SubmitException {
        SubmitLine.Parsed line = LINE.read(inv, SrunOptions.ENV, SrunOptions.HELP, SrunOptions.USAGE, err);
        SubmitOptions o = line.options();
        if (o.has("mpi") && o.get("mpi").equalsIgnoreCase("list")) {
            out.print(MPI_LIST);
            return 0;
        }
        if (line.operands().isEmpty()) {
            throw new SubmitException(1, "fatal: No command given to execute.");
        }
        mpi(o);
        OptionChecks.Cluster cluster = OptionChecks.Cluster.of(inv);
        OptionChecks.check(o, cluster, inv, LINE.warnings(err));
        String jobId = o.has("jobid")
                ? o.get("jobid")
                : inv.env().getOrDefault("SLURM_JOB_ID", inv.env().getOrDefault("SLURM_JOBID", ""));
        if (!jobId.isEmpty() && (jobId.length() > 9 || !jobId.chars().allMatch(Character::isDigit))) {
            throw new SubmitException(1, "error: Invalid numeric value \"" + jobId + "\" for --jobid.");
        }
        if (jobId.isEmpty() && o.has("relative")) {
            throw new SubmitException(1, "fatal: --relative option invalid for job allocation request");
        }
        if (!jobId.isEmpty() && o.has("het-group")) {
            hetGroup(o.get("het-group"));
        }
        LINE.listDefined(line, inv, err);
        List<String> argv = line.operands();
        String name = o.has("job-name") ? o.get("job-name") : baseName(argv.get(0));
        JobSpec spec = JobSpecBuilder.allocation(o, inv, name, String.join(" ", argv), LINE.warnings(err));
        List<String> nodeList = stepNodeList(o);
        StepGeometry geometry = StepGeometry.of(
                spec.getNumTasks(),
                o.has("nodes") ? spec.getMinNodes() : 0,
                spec.getNtasksPerNode(),
                !jobId.isEmpty(),
                inv.env());
        int ntasks = geometry.tasks();
        if (geometry.warning().isPresent()) {
            LINE.warnings(err).accept(geometry.warning().get());
            if (jobId.isEmpty() && spec.getMinNodes() > geometry.nodes()) {
                // A new allocation is made for the step as it now stands.
                spec = spec.toBuilder()
                        .setMinNodes(geometry.nodes())
                        .setMaxNodes(geometry.nodes())
                        .build();
            }
        }
        List<String> stepArgv = o.has("multi-prog") ? multiProg(inv, argv.get(0), ntasks) : argv;
        if (o.has("input")) {
            stepArgv = InputRedirect.wrap(o.get("input"), stepArgv, inv.caller().userName(), name);
        }
        boolean pty = o.has("pty")
                && PtyTerminal.present(inv.callerSide(), inv.env(), inv.cwd().toString());
        if (o.has("pty") && !pty) {
            // As Slurm's srun, whose standard input is not a terminal.
            LINE.warnings(err).accept("error: Not using a pseudo-terminal, disregarding --pty option");
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty() || !CommandSupport.knownGres(inv, stepGres(o), PROG, err)) {
            return 1;
        }
        if (spec.getNumTasks() == 0) {
            // The allocation is for the step: as many tasks as it runs.
            spec = spec.toBuilder().setNumTasks(ntasks).build();
        }
        if (o.has("test-only")) {
            return TestOnly.run(PROG, client.get(), spec, o.has("quiet"), inv, err);
        }
        StepLaunch.Shape shape = new StepLaunch.Shape(
                ntasks,
                geometry.nodes(),
                spec.getCpusPerTask(),
                stepGres(o),
                stepExclusive(o),
                new StepLaunch.Placement(
                        o.has("nodelist") ? String.join(",", nodeList) : "",
                        o.has("relative") ? relative(o.get("relative")) : 0,
                        gpusPerTask(o, inv, !jobId.isEmpty())),
                name,
                spec.getWorkDir(),
                stepArgv,
                Map.of());
        StepLaunch.Io io = new StepLaunch.Io(
                o.has("output") ? o.get("output") : null,
                o.has("error") ? o.get("error") : null,
                o.has("open-mode") && OpenMode.option(o.get("open-mode")).orElse(null) == OpenMode.APPEND,
                o.has("label"),
                o.has("quiet"),
                new StepIoServer.ExitPolicy(killOnBadExit(o), waitSeconds(o), cluster.killWaitSeconds()),
                pty ? StepInput.pty(inv.stdin()) : StepInput.of(o.has("input") ? o.get("input") : null, inv.stdin()),
                pty,
                Optional.empty());
        if (jobId.isEmpty()) {
            return inNewAllocation(client.get(), inv, o, spec, shape, io, out, err);
        }
        return step(client.get(), inv, Integer.parseInt(jobId), inv.env(), o, shape, io, out, err);
    }

    /**
     * A lone srun, as Slurm's: an allocation of exactly what the step needs, the step in it, and
     * the allocation released with srun's exit code.
     */
    private static int inNewAllocation(
            ControllerClient client,
            Invocation inv,
            SubmitOptions o,
            JobSpec spec,
            StepLaunch.Shape shape,
            StepLaunch.Io io,
            PrintStream out,
            PrintStream err) {
        Optional<String> refused = ControllerRefusals.of(o);
        if (refused.isPresent()) {
            err.println(PROG + ": error: Unable to allocate resources: " + refused.get());
            return 1;
        }
        Allocation allocation;
        try {
            allocation = Allocation.submit(client, spec);
        } catch (ControllerException e) {
            if (!e.userMessage().isEmpty()) {
                err.println(PROG + ": error: " + e.userMessage());
            }
            err.println(PROG + ": error: Unable to allocate resources: " + e.getMessage());
            return 1;
        }
        int code = 1;
        try {
            Allocation.Start start = allocation.awaitStart(PROG, err, Allocation.Wait.of(o, false));
            if (start == Allocation.Start.TIMED_OUT) {
                ErrorCode why = allocation.heldByPartitionLimits()
                        ? ErrorCode.REQUESTED_PART_CONFIG_UNAVAILABLE
                        : ErrorCode.NODES_BUSY;
                err.println(PROG + ": error: Unable to allocate resources: " + why.text());
                return 1;
            }
            if (start == Allocation.Start.REVOKED || !allocation.awaitProlog(PROG, err, false)) {
                return 1;
            }
            code = step(
                    client,
                    inv,
                    allocation.jobId(),
                    allocation.environment(inv.env(), CommandSupport.clusterName(inv)),
                    o,
                    shape,
                    io,
                    out,
                    err);
        } catch (ControllerException e) {
            err.println(PROG + ": error: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            allocation.release(code << 8);
        }
        return code;
    }

    /** The step, between {@code --prolog} and {@code --epilog}, which run here as the caller. */
    private static int step(
            ControllerClient client,
            Invocation inv,
            int jobId,
            Map<String, String> env,
            SubmitOptions o,
            StepLaunch.Shape shape,
            StepLaunch.Io io,
            PrintStream out,
            PrintStream err) {
        Map<String, String> stepEnv = JobSpecBuilder.environment(o.has("export") ? o.raw("export") : "ALL", env);
        StepLaunch.Shape s = shape.withEnv(stepEnv);
        int prolog = local(inv, o, "prolog", shape, env);
        if (prolog != 0) {
            err.println(PROG + ": error: srun prolog failed rc = " + prolog + ". Aborting step.");
            return 1;
        }
        int code = io.pty()
                ? onTerminal(client, inv, jobId, s, io, out, err)
                : StepLaunch.run(client, inv, jobId, s, io, out, err);
        int epilog = local(inv, o, "epilog", shape, env);
        if (epilog != 0) {
            err.println(PROG + ": error: srun epilog failed status=" + epilog);
        }
        return code;
    }

    /** {@code --pty}: the step with srun's terminal raw while it runs, and put back after. */
    private static int onTerminal(
            ControllerClient client,
            Invocation inv,
            int jobId,
            StepLaunch.Shape s,
            StepLaunch.Io io,
            PrintStream out,
            PrintStream err) {
        Optional<PtyTerminal> terminal =
                PtyTerminal.raw(inv.callerSide(), inv.env(), inv.cwd().toString());
        if (terminal.isEmpty()) {
            LINE.warnings(err).accept("error: Not using a pseudo-terminal, disregarding --pty option");
            return StepLaunch.run(client, inv, jobId, s, io.withoutPty(), out, err);
        }
        try (PtyTerminal t = terminal.get()) {
            // A raw terminal moves to the next line only on "\r\n": srun's own messages (the
            // task's output comes from its terminal with them already).
            PrintStream onRaw = new PrintStream(PtyTerminal.crlf(err), true, StandardCharsets.UTF_8);
            return StepLaunch.run(client, inv, jobId, s, io.onTerminal(t), out, onRaw);
        }
    }

    /** {@code --prolog}/{@code --epilog}: the program with the step's command line as its arguments. */
    private static int local(
            Invocation inv, SubmitOptions o, String key, StepLaunch.Shape shape, Map<String, String> env) {
        if (!o.has(key) || o.get(key).equalsIgnoreCase("none")) {
            return 0;
        }
        List<String> argv = new ArrayList<>();
        argv.add(o.get(key));
        argv.addAll(shape.argv());
        try {
            int status = inv.callerSide().run(argv, env, shape.workDir());
            return (status & 0x7f) != 0 ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
        } catch (IOException e) {
            return 127;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** {@code -w}'s nodes; srun sends them expanded, the controller checks they are the job's. */
    private static List<String> stepNodeList(SubmitOptions o) throws SubmitException {
        if (!o.has("nodelist") || o.get("nodelist").isBlank()) {
            return List.of();
        }
        try {
            return dev.sluice.common.hostlist.HostList.expand(o.get("nodelist"));
        } catch (IllegalArgumentException e) {
            throw new SubmitException(1, "error: Invalid node list specified");
        }
    }

    private static int relative(String value) throws SubmitException {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new SubmitException(1, "error: Invalid numeric value \"" + value + "\" for --relative.");
        }
    }

    /**
     * {@code --gpus-per-task}, else inside an allocation the job's {@code SLURM_GPUS_PER_TASK}
     * (srun reads it as the option): how many GPUs each task is bound to. A type is dropped.
     */
    private static int gpusPerTask(SubmitOptions o, Invocation inv, boolean inAllocation) {
        String value = o.has("gpus-per-task")
                ? o.get("gpus-per-task")
                : inAllocation ? inv.env().getOrDefault("SLURM_GPUS_PER_TASK", "") : "";
        try {
            return Integer.parseInt(value.substring(value.lastIndexOf(':') + 1).strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The step's GRES per node: {@code --gres}, else {@code --gpus-per-node}, else {@code -G} as GPUs. */
    private static String stepGres(SubmitOptions o) {
        if (o.has("gres")) {
            return o.get("gres");
        }
        if (o.has("gpus-per-node")) {
            return "gpu:" + o.get("gpus-per-node");
        }
        return o.has("gpus") ? "gpu:" + o.get("gpus") : "";
    }

    /**
     * Sluice's exclusive step holds its CPUs and devices against other exclusive steps and takes
     * only what it asks for: Slurm's {@code --exclusive} for a step, which implies {@code --exact}.
     * {@code --exclusive=user|mcs} concern the allocation only.
     */
    private static boolean stepExclusive(SubmitOptions o) {
        boolean exclusive = o.has("exclusive")
                && (o.get("exclusive").isEmpty() || o.get("exclusive").equalsIgnoreCase("exclusive"));
        return (exclusive || o.has("exact")) && !o.has("overlap") && !o.has("whole");
    }

    /** {@code -K}, {@code -K1}: on; {@code -K0}: off. */
    private static boolean killOnBadExit(SubmitOptions o) {
        return o.has("kill-on-bad-exit")
                && (o.get("kill-on-bad-exit").isEmpty()
                        || Integer.parseInt(o.get("kill-on-bad-exit").strip()) != 0);
    }

    private static int waitSeconds(SubmitOptions o) {
        return o.has("wait") ? Integer.parseInt(o.get("wait").strip()) : -1;
    }

    /** Slurm's words for an MPI plugin it cannot load: Sluice has none but "none". */
    private static void mpi(SubmitOptions o) throws SubmitException {
        if (!o.has("mpi") || o.get("mpi").equalsIgnoreCase("none")) {
            return;
        }
        String t = o.get("mpi");
        throw new SubmitException(
                1,
                "error: Couldn't find the specified plugin name for mpi/" + t + " looking at all files",
                "error: cannot find mpi plugin for mpi/" + t,
                "error: MPI: Cannot create context for mpi/" + t,
                "error: MPI: Unable to load any plugin",
                "error: Invalid MPI type '" + t + "', --mpi=list for acceptable types");
    }

    /**
     * Sluice has no heterogeneous jobs, so every allocation is one component: real srun 22.05
     * refuses {@code --het-group} inside such an allocation, whatever the index (a lone srun
     * takes it and makes a plain job).
     */
    private static void hetGroup(String value) throws SubmitException {
        int highest = 0;
        for (String part : value.split("[,-]")) {
            highest = Math.max(highest, Integer.parseInt(part));
        }
        if (highest > 0) {
            throw new SubmitException(
                    1, "error: Requested het-group offset exceeds highest hetjob index (" + highest + " > 0)");
        }
        throw new SubmitException(1, "error: No directives to start application on any available hetjob components");
    }

    private static List<String> multiProg(Invocation inv, String file, int ntasks) throws SubmitException {
        String config;
        try {
            config = new String(inv.callerSide().read(file, 1 << 20), StandardCharsets.UTF_8);
        } catch (CallerFileException e) {
            throw new SubmitException(1, "error: Could not open multi_prog config file " + file);
        }
        return MultiProg.argv(config, file, ntasks);
    }

    private static String baseName(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
