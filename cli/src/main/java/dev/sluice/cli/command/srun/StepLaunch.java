package dev.sluice.cli.command.srun;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
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
 * One step in an allocation: asked of the controller until it fits (other exclusive steps may
 * hold what it needs), its I/O served until every task has ended, its end reported with srun's
 * exit code.
 */
final class StepLaunch {
    private static final String PROG = "srun";

    private StepLaunch() {}

    /** {@code -w} (expanded, comma-joined; empty for any node), {@code -r}, {@code --gpus-per-task}. */
    record Placement(String nodeList, int relative, int gpusPerTask) {}

    /** What the step asks for and runs. */
    record Shape(
            int ntasks,
            int nodes,
            int cpusPerTask,
            String gres,
            boolean exclusive,
            Placement placement,
            String name,
            String workDir,
            List<String> argv,
            Map<String, String> env) {
        Shape withEnv(Map<String, String> e) {
            return new Shape(ntasks, nodes, cpusPerTask, gres, exclusive, placement, name, workDir, argv, e);
        }
    }

    /**
     * How its output is handled and when it is cut short. {@code pty}: {@code --pty} on a
     * terminal; {@code terminal} is that terminal once it is in raw mode.
     */
    record Io(
            String output,
            String error,
            boolean append,
            boolean label,
            boolean quiet,
            StepIoServer.ExitPolicy exit,
            StepInput input,
            boolean pty,
            Optional<PtyTerminal> terminal) {
        Io onTerminal(PtyTerminal t) {
            return new Io(output, error, append, label, quiet, exit, input, true, Optional.of(t));
        }

        /** The terminal could not be put in raw mode: the step runs as without {@code --pty}. */
        Io withoutPty() {
            return new Io(
                    output, error, append, label, quiet, exit, StepInput.of(null, input.in()), false, Optional.empty());
        }
    }

    static int run(
            ControllerClient client, Invocation inv, int jobId, Shape shape, Io io, PrintStream out, PrintStream err) {
        StepOutput output = new StepOutput(
                io.output(),
                io.error(),
                io.append(),
                io.label(),
                new StepOutput.Names(jobId, inv.caller().userName(), shape.name(), shape.workDir()),
                inv.callerSide(),
                out,
                err);
        try (StepIoServer server = StepIoServer.open(output, err, io.exit())) {
            server.forwardInput(io.input());
            CreateStepResponse step = create(client, inv, jobId, shape, server, io, err);
            if (step == null) {
                return 1;
            }
            // File names need the step id; the files are made as the tasks start, after this.
            output.step(step.getStepId());
            int code;
            try (var ignored = Interrupts.forwardTo(
                            inv, server, err, PROG + ": interrupt (signal forwarded to the tasks)");
                    TerminalResizes resizes = TerminalResizes.forward(inv, io.terminal(), server)) {
                code = server.serve(step.getNumNodes(), step.getNumTasks(), jobId + "." + step.getStepId());
            }
            complete(client, jobId, step.getStepId(), server.stepStatus());
            return code;
        } catch (IOException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return 1;
        }
    }

    /** Asks for the step until it gets one; "busy" means other exclusive steps hold what it needs. */
    private static CreateStepResponse create(
            ControllerClient client, Invocation inv, int jobId, Shape s, StepIoServer server, Io io, PrintStream err)
            throws IOException {
        boolean quiet = io.quiet();
        CreateStepRequest.Builder request = CreateStepRequest.newBuilder()
                .setJobId(jobId)
                .setNumTasks(s.ntasks())
                .setNumNodes(s.nodes())
                .setCpusPerTask(s.cpusPerTask())
                .setGres(s.gres())
                .setExclusive(s.exclusive())
                .setNodeList(s.placement().nodeList())
                .setRelative(s.placement().relative())
                .setGpusPerTask(s.placement().gpusPerTask())
                .setStdinMode(io.input().mode())
                .setStdinTask(io.input().task())
                .addAllArgv(s.argv())
                .putAllEnvironment(s.env())
                .setWorkDir(s.workDir())
                .setIoHost(server.host(inv.caller().host()))
                .setIoPort(server.port())
                .setName(s.name())
                // An agent's srun runs in the agent's JVM; its pid is still the process that
                // relays the step's I/O, which is what SrunHost:Pid points an administrator to.
                .setSrunHost(inv.caller().host())
                .setSrunPid((int) ProcessHandle.current().pid());
        io.terminal().ifPresent(t -> request.setPty(t.size()));
        boolean told = false;
        long delayMs = 100;
        while (true) {
            try {
                CreateStepResponse step = client.call(ClientRequest.newBuilder().setCreateStep(request))
                        .getCreateStep();
                if (told && !quiet) {
                    err.println(PROG + ": Step created for job " + jobId);
                }
                return step;
            } catch (ControllerException e) {
                if (e.getMessage().equals(ErrorCode.NODES_BUSY.text())) {
                    if (!told && !quiet) {
                        err.println(PROG + ": Job " + jobId
                                + " step creation temporarily disabled, retrying (Requested nodes are busy)");
                        err.flush();
                        told = true;
                    }
                    // srun polls as Slurm's does; a step ending frees resources without telling it.
                    server.pause(delayMs);
                    delayMs = Math.min(1000, delayMs * 2);
                    continue;
                }
                err.println(PROG + ": error: Unable to create step for job " + jobId + ": " + e.getMessage());
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
